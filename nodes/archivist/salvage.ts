import { defineNode } from '../../src/runtime/node.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';
import { templateAnswer } from './templates.ts';

/** The deterministic answer: built from the real shortlist alone, no model. */
export const salvage = defineNode<'salvaged', ArchivistServices>({
  id: nodeIri('salvage'),
  outputs: ['salvaged'],
  description: 'Answers from the shortlist without a model.',
  run(item) {
    const data = item.data as unknown as AskData;
    data.answer = templateAnswer(data.intent ?? 'find', data.shortlist ?? [], 'salvage');
    data.source = 'salvage';
    delete data.repair;
    return { output: 'salvaged', reason: `answered from ${(data.shortlist ?? []).length} shortlisted books` };
  },
});
