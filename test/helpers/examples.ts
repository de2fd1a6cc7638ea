/**
 * The `curl` examples of docs/try-it.sh (the README's "Try it" and the API guide show parts of it), as requests a
 * test can send: each line's headers (`-H`), its URL (`$PF/...`), the shell variables it uses (`$FREE`, `$SLUG`,
 * ...) and the status its comment names, with the lines that set a variable from an answer
 * (`SLUG=$(curl ... | node -p "...data[0].slug")`) kept as such.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_FILE } from '../../tools/docs/examples';

export interface Example {
  /** The file's line, for test names. */
  line: string;
  /** `SLUG` for `SLUG=$(curl ...)`, else null. */
  assigns: string | null;
  /** Header lines (`Authorization: Bearer $DEV`), variables unexpanded. */
  headers: string[];
  /** The path and query after `$PF` (`/providers?vertical=glp1`), variables unexpanded. */
  target: string;
  /** The status the line's comment starts with (`# 404 not_found`), else null (a 200, or a 304 for a tag). */
  status: number | null;
}

/** Every `curl` line of the examples file, in order. */
export function tryItExamples(repoRoot: string): Example[] {
  const lines = readFileSync(path.join(repoRoot, EXAMPLES_FILE), 'utf8').split('\n');
  const examples: Example[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    const assign = /^([A-Z]+)=\$\(curl /.exec(trimmed);
    if (!trimmed.startsWith('curl ') && assign === null) continue;
    const url = /"\$PF(\/[^"]*)"/.exec(trimmed);
    if (url === null) throw new Error(`${EXAMPLES_FILE}: an example without a "$PF/..." URL: ${trimmed}`);
    const headers = [...trimmed.matchAll(/-H "([^"]+)"/g)].map((m) => m[1] as string);
    const status = /\s#\s+([1-5][0-9]{2})\b/.exec(trimmed);
    examples.push({
      line: trimmed,
      assigns: assign ? (assign[1] as string) : null,
      headers,
      target: url[1] as string,
      status: status ? Number(status[1]) : null,
    });
  }
  return examples;
}

/** The value an example line assigns (`SLUG=$(curl ...)`), from its answer's headers and (decoded) body. */
export function assignedValue(name: string, headers: Record<string, unknown>, body: string): string {
  if (name === 'ETAG') return String(headers.etag ?? '');
  const answer = JSON.parse(body);
  if (name === 'SLUG') return answer.data[0]?.slug ?? '';
  if (name === 'SINCE') return answer.span.oldest_snapshot;
  if (name === 'LAST') return answer.snapshot_id;
  throw new Error(`${EXAMPLES_FILE}: no rule for the value of $${name}`);
}

/** Expands `$NAME` from `values`; an unknown variable throws. */
export function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\$([A-Z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for $${name} in "${text}"`);
    return value;
  });
}
