import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDagFile } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { compile } from '../../src/graph/compile.ts';
import { defaultPolicy } from '../../src/policy/defaults.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { decide } from '../../src/runtime/decide.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { createItemState } from '../../src/runtime/item-state.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { virtualClock } from './helpers.ts';

const INVALID = fileURLToPath(new URL('../fixtures/invalid/', import.meta.url));

async function invalidFixture(code: string): Promise<Dag> {
  const { dag, problems } = await loadDagFile(`${INVALID}${code}.jsonld`);
  if (dag === undefined) throw new Error(`${code}: ${problems.map((p) => p.message).join('; ')}`);
  return dag;
}

/** The rejection of a promise that must reject. */
async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to be refused');
}

describe('the dispatcher refuses documents analysis rejects', () => {
  it('refuses a loop without a budget with E_UNBOUNDED_LOOP instead of running it forever', async () => {
    const dag = await invalidFixture('E_UNBOUNDED_LOOP');
    let calls = 0;
    const start = defineNode({
      id: 'urn:test:node:start',
      outputs: ['ok'],
      run: () => {
        calls++;
        return 'ok';
      },
    });
    const check = defineNode({
      id: 'urn:test:node:check',
      outputs: ['passed', 'rejected'],
      run: () => 'rejected',
    });
    const dispatcher = createDispatcher({ nodes: [start, check], clock: virtualClock() });
    const error = await rejection(dispatcher.run(dag, {}));
    expect(isSwitchyardError(error) && error.code).toBe('E_UNBOUNDED_LOOP');
    expect(isSwitchyardError(error) && error.problems.map((p) => p.code)).toContain('E_UNBOUNDED_LOOP');
    expect(calls).toBe(0);
    // Refused again on the next run: the refusal is not cached as a pass.
    expect(isSwitchyardError(await rejection(dispatcher.run(dag, {})))).toBe(true);
  });

  it('refuses a retry route without a budget', async () => {
    const dag = await invalidFixture('E_RETRY_WITHOUT_BUDGET');
    const start = defineNode({ id: 'urn:test:node:start', outputs: ['ok', 'retry'], run: () => 'retry' });
    const error = await rejection(createDispatcher({ nodes: [start], clock: virtualClock() }).run(dag, {}));
    expect(isSwitchyardError(error) && error.problems.map((p) => p.code)).toContain('E_RETRY_WITHOUT_BUDGET');
  });

  it('decide fails (never goes) on a retry route that spends no budget', async () => {
    const compiled = compile(await invalidFixture('E_RETRY_WITHOUT_BUDGET'));
    const at = compiled.byKey.get('start');
    if (at === undefined) throw new Error('no start placement');
    const decision = decide(
      at,
      createItemState('1', {}),
      { output: 'retry' },
      {
        timing: defaultPolicy.defaults,
        budgets: compiled.budgets,
        now: 0,
        runDeadlineAt: Number.POSITIVE_INFINITY,
        random: seededRandom(1),
      },
    );
    expect(decision.type).toBe('fail');
    expect(decision.type === 'fail' && decision.error.engineCode).toBe('E_RETRY_WITHOUT_BUDGET');
  });
});
