import { defineNode } from '../../src/runtime/node.ts';
import { classifyByRules } from './rules.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';
import type { Intent } from './types.ts';

/** The salvage classifier: fixed rules over the catalog's titles, authors and subjects, no model. */
export const classifyRules = defineNode<Intent, ArchivistServices>({
  id: nodeIri('classify-rules'),
  outputs: ['find', 'recommend', 'describe', 'off-topic'],
  description: 'Classifies the intent of the question with deterministic rules.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    const classification = classifyByRules(data.question, data.memory, ctx.services.catalog);
    data.classification = classification;
    data.intent = classification.intent;
    data.classifiedBy = 'rules';
    return {
      output: classification.intent,
      reason: `the rules classified the question as ${classification.intent}`,
    };
  },
});
