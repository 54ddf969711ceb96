import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locator } from '../../src/document/parse-json.ts';
import { SHIPPED } from './helpers.ts';

function segment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Every pointer into `value`, the whole document included. */
function pointers(value: unknown, at = ''): string[] {
  const out = [at];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) out.push(...pointers(value[i], `${at}/${i}`));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...pointers(v, `${at}/${segment(k)}`));
  }
  return out;
}

/** The scanning locator and the tree locator agree on every pointer of `text`, and on one it lacks. */
function agree(text: string): void {
  const tree = locator(text, false);
  for (const pointer of [...pointers(JSON.parse(text)), '/absent', '/0/absent']) {
    expect(locator(text, true)(pointer), pointer).toEqual(tree(pointer));
  }
}

const FIXTURES = ['test/fixtures/forms', 'test/fixtures/hostile'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.jsonld') && !f.startsWith('deep-'))
    .map((f) => join(dir, f)),
);

describe('locating a pointer by scanning the text', () => {
  it.each([...SHIPPED, ...FIXTURES])('agrees with the tree of %s on every pointer', (file) => {
    agree(readFileSync(file, 'utf8'));
  });

  it('agrees on names with escapes, slashes and tildes, and on any spacing', () => {
    agree('{"a\\"b": 1, "c/d": {"e~f": [true, null, -1.5e3, "x\\\\"]}, "\\u00e9": {}}');
    agree(' \n[ 1 ,\t{ "k" :\r\n[ ] } , "s" ]  ');
  });

  it('agrees on any JSON value, written compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.integer({ min: 0, max: 3 }), (value, indent) => {
        agree(JSON.stringify(value, null, indent));
      }),
      { numRuns: 200 },
    );
  });

  it('ends on text that is not JSON', () => {
    for (const text of ['[}', '{"a": ]', '{"a" 1}', '[1 2', '{"a": {"b": [}}}']) {
      expect(() => locator(text, true)('/a/b/0')).not.toThrow();
    }
  });
});
