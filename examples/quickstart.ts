/**
 * The README's "Running DAGs from code": load a document, run it on the virtual clock, watch its events.
 * Run: node --import tsx examples/quickstart.ts
 */
import { createDispatcher, createVirtualClock, loadDagFile, resolvePolicy, seededRandom } from 'switchyard';
import { nodes } from './compose-validate/nodes.ts';

const { dag, problems } = await loadDagFile('dags/compose-validate.jsonld');
if (!dag) throw new Error(problems.map((p) => p.message).join('\n'));

const dispatcher = createDispatcher({
  nodes,
  policy: resolvePolicy({
    defaults: { deadlineMs: 5000, backoff: { strategy: 'exponential', baseMs: 200 }, jitter: 'equal' },
  }),
  clock: createVirtualClock({ auto: true }),
  // A seeded jitter source: the same delays on every run.
  random: seededRandom(1),
});
const run = dispatcher.run(dag, { topic: 'whales', rejections: 2 });
for await (const event of run) {
  if (event.type === 'retry.scheduled')
    console.log(
      `t=${event.time} ms retry ${event.from} → ${event.to} in ${event.delayMs} ms: ${event.reason}`,
    );
}
const result = await run;
console.log(result.status, result.items.map((item) => `${item.id} ended at ${item.terminal}`).join(', '));
