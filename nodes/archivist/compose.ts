import { defineNode } from '../../src/runtime/node.ts';
import { composeMessages } from './prompts.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** Asks the model for a prose answer from the shortlist, with the validator's repair hint on a retry. */
export const compose = defineNode<'drafted', ArchivistServices>({
  id: nodeIri('compose'),
  outputs: ['drafted'],
  description: 'Composes a draft answer with the model.',
  async run(item, ctx) {
    const data = item.data as unknown as AskData;
    const messages = composeMessages(data.question, data.intent ?? 'find', data.shortlist ?? [], data.repair);
    data.draft = await ctx.services.model.complete(messages, { signal: ctx.signal });
    const attempt = ctx.attempts('compose') + 1;
    return {
      output: 'drafted',
      reason: data.repair ? `draft ${attempt}, repairing: ${data.repair}` : `draft ${attempt}`,
    };
  },
});
