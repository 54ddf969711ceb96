/**
 * Nodes for dags/approval.jsonld: a draft that waits for an editor's answer. The draft takes the
 * editor's note into account when the answer was `revise`; a review nobody answers before its deadline is
 * escalated. Deterministic, so that the README's transcript is the same on every machine.
 * @example
 * switchyard run dags/approval.jsonld --nodes examples/review/nodes.ts --store review.db \
 *   --input '{"topic":"the night train to Lisbon"}'
 */
import { defineNode } from '../../src/runtime/node.ts';

/** What the editor sent back with an answer (the await writes it at /review). */
interface Review {
  readonly note?: string;
}

const draft = defineNode({
  id: 'urn:switchyard:node:draft',
  outputs: ['drafted'],
  run: (item, ctx) => {
    const topic = String(item.data.topic ?? 'something');
    const review = item.data.review as Review | undefined;
    // The first visit writes a draft; a revision (a later visit) takes the editor's note in.
    item.data.draft =
      ctx.visit === 1 || review?.note === undefined
        ? `A short piece on ${topic}.`
        : `A short piece on ${topic}, revised: ${review.note}.`;
    item.data.drafts = ctx.visit;
    return 'drafted';
  },
});

const escalate = defineNode({
  id: 'urn:switchyard:node:escalate',
  outputs: ['queued'],
  run: (item) => {
    item.data.escalation = 'no answer in time: queued for the managing editor';
    return 'queued';
  },
});

export const nodes = [draft, escalate];
