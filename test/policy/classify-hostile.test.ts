import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '../../src/errors.ts';
import { classifyError } from '../../src/policy/classify.ts';
import { defaultClassification } from '../../src/policy/defaults.ts';
import { describeThrown } from '../../src/policy/safe-read.ts';
import { engineFailure, summarise, withEngineCode } from '../../src/runtime/error-summary.ts';
import { HOSTILE_THROWN } from '../fixtures/hostile-thrown.ts';

describe('classification survives any thrown value', () => {
  it.each(HOSTILE_THROWN)('%s', (_what, make) => {
    const thrown = make();
    const classified = withEngineCode(thrown, classifyError(thrown, defaultClassification));
    expect(classified.engineCode).toBe('E_NODE_ERROR');
    expect(typeof classified.message).toBe('string');
    // What events and records hold of it is plain JSON.
    const summary = summarise(classified);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
    expect(JSON.parse(JSON.stringify(classified))).toEqual(classified);
    expect(isSwitchyardError(thrown)).toBe(false);
    const engine = engineFailure(thrown, 'work');
    expect(engine).toMatchObject({ engineCode: 'E_ENGINE', retryable: false });
    expect(engine.message).toContain("the engine failed at placement 'work'");
  });

  it('describes each kind of value in one line', () => {
    expect(describeThrown(null)).toBe('null');
    expect(describeThrown(undefined)).toBe('undefined');
    expect(describeThrown(Symbol('thrown'))).toBe('Symbol(thrown)');
    expect(describeThrown(10n)).toBe('10');
    expect(describeThrown(new Error('busy'))).toBe('busy');
    expect(describeThrown({ toString: () => 'custom' })).toBe('custom');
    const [, proxy] = HOSTILE_THROWN[0] ?? [];
    expect(describeThrown(proxy?.())).toBe('an unprintable thrown value');
  });

  it('still reads what can be read beside what throws', () => {
    const error = Object.assign(new Error('rate limited'), { status: 429, headers: { 'retry-after': '2' } });
    Object.defineProperty(error, 'cause', {
      get() {
        throw new Error('no cause for you');
      },
    });
    Object.defineProperty(error, 'retryable', {
      get() {
        throw new Error('no flag either');
      },
    });
    expect(classifyError(error, defaultClassification)).toMatchObject({
      retryable: true,
      status: 429,
      retryAfter: '2',
      message: 'rate limited',
    });
  });

  it('finds the status at the bottom of a deep chain when maxDepth reaches it, and not past it', () => {
    let error: Error = Object.assign(new Error('bottom'), { status: 503 });
    for (let i = 0; i < 40; i++) error = new Error(`level ${i}`, { cause: error });
    expect(classifyError(error, { ...defaultClassification, maxDepth: 40 })).toMatchObject({ status: 503 });
    expect(classifyError(error, { ...defaultClassification, maxDepth: 39 })).toMatchObject({ kind: 'error' });
  });
});
