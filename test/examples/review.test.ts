/**
 * examples/review with dags/approval.jsonld: a draft waits for an editor. Every route of the await is taken
 * through the dispatcher on a virtual clock, with the policy shipped beside the document; the README's
 * transcript runs the same example through the command line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodes } from '../../examples/review/nodes.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { loadDag } from '../runtime/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'review-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;

async function setup(name: string) {
  const dag = await loadDag('approval');
  const policy = await loadPolicyFile('dags/approval.policy.json');
  const store = await openSqliteStore(join(dir, `${name}.db`));
  const clock = createVirtualClock({ auto: true, start: 0, wallStart: 1_800_000_000_000 });
  return { dag, store, clock, dispatcher: createDispatcher({ nodes, policy, clock, store }) };
}

describe('examples/review', () => {
  it('waits for the editor, revises with the note, and is approved', async () => {
    const { dag, store, dispatcher } = await setup('approved');
    const first = await dispatcher.run(dag, { topic: 'trains' }, { runId: 'a', whenParked: 'stop' });
    expect(first.status).toBe('waiting');
    const token = first.parked?.[0]?.token as string;
    await dispatcher.answer({ runId: 'a', token, output: 'revise', data: { note: 'name the stations' } });
    const second = await dispatcher.resume('a', { whenParked: 'stop' });
    expect(second.status).toBe('waiting');
    const again = second.parked?.[0];
    expect(again).toMatchObject({ visit: 2 });
    expect(again?.token).not.toBe(token);
    await dispatcher.answer({ runId: 'a', item: '1', placement: 'review', output: 'approved' });
    const done = await dispatcher.resume('a');
    expect(done.status).toBe('completed');
    expect(done.items[0]).toMatchObject({ terminal: 'approved' });
    expect(done.items[0]?.data).toMatchObject({
      draft: 'A short piece on trains, revised: name the stations.',
      drafts: 2,
    });
    await store.close();
  });

  it('escalates a review nobody answers within its day', async () => {
    const { dag, store, clock, dispatcher } = await setup('escalated');
    const first = await dispatcher.run(dag, { topic: 'trains' }, { runId: 'e', whenParked: 'stop' });
    expect(first.parked?.[0]?.deadlineAt).toBe(1_800_000_000_000 + DAY);
    clock.advance(DAY);
    const done = await dispatcher.resume('e');
    expect(done.items[0]).toMatchObject({ terminal: 'escalated', outcome: 'failed' });
    expect(done.items[0]?.data.escalation).toBe('no answer in time: queued for the managing editor');
    await store.close();
  });

  it('escalates after the second revision: the retry budget bounds the loop', async () => {
    const { dag, store, dispatcher } = await setup('revisions');
    let result = await dispatcher.run(dag, { topic: 'trains' }, { runId: 'r', whenParked: 'stop' });
    for (let i = 0; i < 3; i++) {
      await dispatcher.answer({ runId: 'r', token: result.parked?.[0]?.token as string, output: 'revise' });
      result = await dispatcher.resume('r', { whenParked: 'stop' });
    }
    expect(result.items[0]).toMatchObject({ terminal: 'escalated' });
    await store.close();
  });
});
