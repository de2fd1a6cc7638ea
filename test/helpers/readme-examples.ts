/**
 * The `curl` examples of the README's "Try it against `npm start`" block, as requests a test can send: each line's
 * headers (`-H`), its URL (`$PF/...`), and the shell variables it uses (`$FREE`, `$SLUG`, ...), with the lines
 * that set a variable from an answer (`SLUG=$(curl ... | node -p "...data[0].slug")`) kept as such.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ReadmeExample {
  /** The README line, for test names. */
  line: string;
  /** `SLUG` for `SLUG=$(curl ...)`, else null. */
  assigns: string | null;
  /** Header lines (`Authorization: Bearer $DEV`), variables unexpanded. */
  headers: string[];
  /** The path and query after `$PF` (`/providers?vertical=glp1`), variables unexpanded. */
  target: string;
}

const BLOCK_HEADING = '### Try it against `npm start`';

/** Every `curl` line of the block, in order. */
export function readmeExamples(repoRoot: string): ReadmeExample[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf(BLOCK_HEADING);
  if (start < 0) throw new Error(`README.md has no "${BLOCK_HEADING}" section`);
  const open = readme.indexOf('```sh\n', start);
  const close = readme.indexOf('\n```', open + 6);
  const lines = readme.slice(open + 6, close).split('\n');
  const examples: ReadmeExample[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    const assign = /^([A-Z]+)=\$\(curl /.exec(trimmed);
    if (!trimmed.startsWith('curl ') && assign === null) continue;
    const url = /"\$PF(\/[^"]*)"/.exec(trimmed);
    if (url === null) throw new Error(`README example without a "$PF/..." URL: ${trimmed}`);
    const headers = [...trimmed.matchAll(/-H "([^"]+)"/g)].map((m) => m[1] as string);
    examples.push({ line: trimmed, assigns: assign ? (assign[1] as string) : null, headers, target: url[1] as string });
  }
  return examples;
}

/** Expands `$NAME` from `values`; an unknown variable throws. */
export function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\$([A-Z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for $${name} in "${text}"`);
    return value;
  });
}
