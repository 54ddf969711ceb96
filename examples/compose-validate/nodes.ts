/**
 * Demo nodes for dags/compose-validate.jsonld, steered by the item's data so that every route of the
 * document can be seen from the command line:
 * - `rejections`: how many drafts the validator rejects before it accepts one (default 1);
 * - `fail`: how the first composition fails: `429` (with Retry-After: 2), `503`, `reset`, `400` or `hang`.
 * @example
 * switchyard run dags/compose-validate.jsonld --nodes examples/compose-validate/nodes.ts \
 *   --input '{"topic":"whales","rejections":5,"fail":"429"}' --virtual-time --events run.jsonl
 */
import { defineNode } from '../../src/runtime/node.ts';

type Failure = '429' | '503' | 'reset' | '400' | 'hang';

/** An error shaped as HTTP clients and sockets report them, for the engine's classification. */
function failure(kind: Failure, signal: AbortSignal): Promise<never> {
  switch (kind) {
    case '429':
      return Promise.reject(
        Object.assign(new Error('429 Too Many Requests'), { status: 429, headers: { 'retry-after': '2' } }),
      );
    case '503':
      return Promise.reject(Object.assign(new Error('503 Service Unavailable'), { status: 503 }));
    case 'reset':
      return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    case '400':
      return Promise.reject(
        Object.assign(new Error('400 Bad Request: the prompt is malformed'), { status: 400 }),
      );
    case 'hang':
      // Never answers by itself: the placement's deadline (from the policy) cuts it.
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
  }
}

const compose = defineNode({
  id: 'urn:switchyard:node:compose',
  outputs: ['drafted'],
  run: async (item, ctx) => {
    const fail = item.data.fail as Failure | undefined;
    if (fail !== undefined && ctx.visit === 1) return failure(fail, ctx.signal);
    const hint = typeof item.data.hint === 'string' ? ` (${item.data.hint})` : '';
    item.data.draft = `Draft ${ctx.attempts('compose') + 1} about ${String(item.data.topic ?? 'nothing')}${hint}`;
    return 'drafted';
  },
});

const validate = defineNode({
  id: 'urn:switchyard:node:validate',
  outputs: ['valid', 'invalid'],
  run: (item, ctx) => {
    const rejections = typeof item.data.rejections === 'number' ? item.data.rejections : 1;
    if (ctx.attempts('compose') < rejections) {
      item.data.hint = 'name a source';
      return { output: 'invalid', reason: `draft ${ctx.attempts('compose') + 1} names no source` };
    }
    return 'valid';
  },
});

const salvage = defineNode({
  id: 'urn:switchyard:node:salvage',
  outputs: ['salvaged'],
  run: (item) => {
    item.data.draft = `A short, safe answer about ${String(item.data.topic ?? 'nothing')}.`;
    return { output: 'salvaged', reason: 'answered from a template' };
  },
});

/** The three nodes of the compose/validate document. */
export const nodes = [compose, validate, salvage];
