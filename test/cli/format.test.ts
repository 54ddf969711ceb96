import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/cli/format.ts';
import { displayPath } from '../../src/cli/output.ts';

describe('formatDuration', () => {
  it.each([
    [850, '850 ms'],
    [999.6, '1.00 s'],
    [1234, '1.23 s'],
    [9_996, '10.0 s'],
    [12_500, '12.5 s'],
    [59_960, '1 min'],
    [119_700, '2 min'],
    [200_000, '3 min 20 s'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('never shows a unit at its rollover value', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 10_000_000, noNaN: true }), (ms) => {
        expect(formatDuration(ms)).not.toMatch(/^1000 ms$|^(10\.00|60\.0) s$| 60 s$/);
      }),
    );
  });
});

describe('displayPath', () => {
  it('is relative below the working folder and absolute outside it', () => {
    expect(displayPath('/work/main/dags/x.jsonld', '/work/main')).toBe('dags/x.jsonld');
    expect(displayPath('dags/x.jsonld', '/work/main')).toBe('dags/x.jsonld');
    expect(displayPath('/tmp/x.svg', '/work/main')).toBe('/tmp/x.svg');
    expect(displayPath('../x.svg', '/work/main')).toBe('/work/x.svg');
  });
});
