import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VALIDATORS, validatorSource } from '../../scripts/generate-validators.ts';
import { ucs2length } from '../../src/document/ucs2length.ts';

const ajvLength = (
  createRequire(import.meta.url)('ajv/dist/runtime/ucs2length') as {
    default: (text: string) => number;
  }
).default;

describe('the validators generated ahead of time', () => {
  for (const target of VALIDATORS) {
    it(`${target.module} is what scripts/generate-validators.ts writes from ${target.schema} today`, () => {
      const checkedIn = readFileSync(new URL(`../../${target.module}`, import.meta.url), 'utf8');
      // A difference means the schema (or Ajv) changed: run `node --import tsx scripts/generate-validators.ts`.
      expect(checkedIn).toBe(validatorSource(target));
    });
  }

  it('load no part of Ajv at run time', () => {
    for (const target of VALIDATORS) {
      const text = readFileSync(new URL(`../../${target.module}`, import.meta.url), 'utf8');
      expect(text).not.toMatch(/require\(|from 'ajv/u);
    }
  });

  it('count string lengths in code points as Ajv does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(ucs2length(text)).toBe(ajvLength(text));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite' }), (text) => {
        expect(ucs2length(text)).toBe(ajvLength(text));
      }),
    );
    // Lone surrogates, at either end and in the middle.
    for (const text of ['\ud800', '\udc00', 'a\ud800', '\ud800a', '\udc00\ud800', '\ud83d\ude00x']) {
      expect(ucs2length(text)).toBe(ajvLength(text));
    }
  });
});
