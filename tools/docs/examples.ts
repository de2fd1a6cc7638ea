/**
 * The examples of `docs/try-it.sh` in the guides, so that no example is written twice. The file is cut into named
 * parts, each from a `#>> name` line to the next `#<<` line. A Markdown file shows parts in a block that names them:
 *
 * ```
 * <!-- try-it: keys vertical -->
 * (generated: the parts' lines, as a `sh` code block)
 * <!-- /try-it -->
 * ```
 *
 * `npm run docs:examples` rewrites every such block from the file; `test/unit/tools/docs/examples.test.ts` fails when
 * one differs from what this module generates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The examples file, from the repository root. */
export const EXAMPLES_FILE = 'docs/try-it.sh';
/** The Markdown files that show parts of it, from the repository root. */
export const SHOWN_IN = ['README.md', 'docs/api-guide.md'] as const;

const PART_START = /^#>> ([a-z][a-z0-9-]*)$/;
const PART_END = '#<<';
const BLOCK = /<!-- try-it: ([a-z0-9 -]+) -->\n[\s\S]*?<!-- \/try-it -->/g;

/** The named parts of the examples file, in file order, each its lines without the marker lines. */
export function exampleParts(script: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const [index, line] of script.split('\n').entries()) {
    const start = PART_START.exec(line);
    if (start !== null) {
      const name = start[1] as string;
      if (current !== null) throw new Error(`${EXAMPLES_FILE}:${index + 1}: part "${name}" starts inside another`);
      if (parts.has(name)) throw new Error(`${EXAMPLES_FILE}:${index + 1}: part "${name}" is named twice`);
      current = [];
      parts.set(name, current);
    } else if (line === PART_END) {
      if (current === null) throw new Error(`${EXAMPLES_FILE}:${index + 1}: "${PART_END}" outside a part`);
      current = null;
    } else if (current !== null) {
      current.push(line);
    }
  }
  if (current !== null) throw new Error(`${EXAMPLES_FILE}: the last part has no "${PART_END}"`);
  return parts;
}

/** The Markdown block that shows `names`, one blank line between parts. */
export function shownBlock(names: readonly string[], parts: Map<string, string[]>): string {
  const lines = names.map((name) => {
    const part = parts.get(name);
    if (part === undefined) throw new Error(`no part "${name}" in ${EXAMPLES_FILE}`);
    return part.join('\n');
  });
  return `<!-- try-it: ${names.join(' ')} -->\n\`\`\`sh\n${lines.join('\n\n')}\n\`\`\`\n<!-- /try-it -->`;
}

/** `markdown` with every try-it block generated again from `parts`. */
export function withExamples(markdown: string, parts: Map<string, string[]>): string {
  return markdown.replace(BLOCK, (_, names: string) => shownBlock(names.trim().split(/ +/), parts));
}

/** The part names each try-it block of `markdown` shows, in order. */
export function shownParts(markdown: string): string[][] {
  return [...markdown.matchAll(BLOCK)].map((m) => (m[1] as string).trim().split(/ +/));
}

/** Rewrites the try-it blocks of {@link SHOWN_IN} under `root`; returns the files that changed. */
export function rewriteExamples(root: string): string[] {
  const parts = exampleParts(readFileSync(path.join(root, EXAMPLES_FILE), 'utf8'));
  const changed: string[] = [];
  for (const file of SHOWN_IN) {
    const at = path.join(root, file);
    const before = readFileSync(at, 'utf8');
    const after = withExamples(before, parts);
    if (after !== before) {
      writeFileSync(at, after);
      changed.push(file);
    }
  }
  return changed;
}

if (require.main === module) {
  const changed = rewriteExamples(path.resolve(__dirname, '..', '..'));
  console.log(changed.length === 0 ? 'examples: every block is up to date' : `examples: rewrote ${changed.join(', ')}`);
}
