import { defineNode } from '../../src/runtime/node.ts';
import { classifyMessages, parseClassification } from './prompts.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';
import type { Intent } from './types.ts';

/**
 * Asks the model for the question's intent and what it names. An unusable answer goes to `unclear`
 * with the reason; a failed call throws, and the engine routes it by its classification.
 */
export const classify = defineNode<Intent | 'unclear', ArchivistServices>({
  id: nodeIri('classify'),
  outputs: ['find', 'recommend', 'describe', 'off-topic', 'unclear'],
  description: 'Classifies the intent of the question with the model.',
  async run(item, ctx) {
    const data = item.data as unknown as AskData;
    const text = await ctx.services.model.complete(classifyMessages(data.question, data.memory), {
      signal: ctx.signal,
    });
    const parsed = parseClassification(text);
    if (typeof parsed === 'string') return { output: 'unclear', reason: parsed };
    data.classification = parsed;
    data.intent = parsed.intent;
    data.classifiedBy = 'model';
    return { output: parsed.intent, reason: `the model classified the question as ${parsed.intent}` };
  },
});
