/**
 * The examples are written once, in docs/try-it.sh: the README and the API guide show parts of it in generated
 * blocks. These tests fail when a block differs from the file (run `npm run docs:examples`), or when a part of the
 * file is shown nowhere.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  EXAMPLES_FILE,
  exampleParts,
  SHOWN_IN,
  shownBlock,
  shownParts,
  withExamples,
} from '../../../../tools/docs/examples';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the examples of docs/try-it.sh in the docs', () => {
  const parts = exampleParts(read(EXAMPLES_FILE));

  it.each(SHOWN_IN)('shows in %s exactly the lines of the parts each block names', (file) => {
    const markdown = read(file);
    expect(shownParts(markdown).length).toBeGreaterThan(0);
    // A difference here: run `npm run docs:examples` and commit the result.
    expect(withExamples(markdown, parts)).toBe(markdown);
  });

  it('shows every part of the file somewhere', () => {
    const shown = new Set(SHOWN_IN.flatMap((file) => shownParts(read(file)).flat()));
    expect([...parts.keys()].filter((name) => !shown.has(name))).toEqual([]);
  });

  it('keeps every curl line of the file inside a part', () => {
    const inParts = new Set([...parts.values()].flat());
    const outside = read(EXAMPLES_FILE)
      .split('\n')
      .filter((line) => /^(curl |[A-Z]+=\$\(curl )/.test(line) && !inParts.has(line));
    expect(outside).toEqual([]);
  });
});

describe('exampleParts and shownBlock', () => {
  const script = ['#!/usr/bin/env bash', '#>> a', 'curl -s "$PF/a"', '#<<', '', '#>> b', '# b', 'curl "$PF/b"', '#<<'];

  it('cuts the file into its named parts, marker lines left out', () => {
    expect([...exampleParts(script.join('\n'))]).toEqual([
      ['a', ['curl -s "$PF/a"']],
      ['b', ['# b', 'curl "$PF/b"']],
    ]);
  });

  it('refuses a part left open, a part named twice and an end outside a part', () => {
    expect(() => exampleParts('#>> a\ncurl x')).toThrow('no "#<<"');
    expect(() => exampleParts('#>> a\n#<<\n#>> a\n#<<')).toThrow('named twice');
    expect(() => exampleParts('#<<')).toThrow('outside a part');
  });

  it('renders the named parts as one sh block between its markers, and rewrites a stale one', () => {
    const parts = exampleParts(script.join('\n'));
    const block = shownBlock(['a', 'b'], parts);
    expect(block).toBe('<!-- try-it: a b -->\n```sh\ncurl -s "$PF/a"\n\n# b\ncurl "$PF/b"\n```\n<!-- /try-it -->');
    const stale = 'Intro\n\n<!-- try-it: a b -->\n```sh\nold\n```\n<!-- /try-it -->\n\nAfter\n';
    expect(withExamples(stale, parts)).toBe(`Intro\n\n${block}\n\nAfter\n`);
    expect(() => shownBlock(['c'], parts)).toThrow('no part "c"');
  });
});
