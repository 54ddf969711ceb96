import { defineNode } from '../../src/runtime/node.ts';
import { rejectDraft } from './checks.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** Checks the draft: a good one becomes the answer; a bad one goes to `invalid` with a repair hint. */
export const validate = defineNode<'valid' | 'invalid', ArchivistServices>({
  id: nodeIri('validate'),
  outputs: ['valid', 'invalid'],
  description: 'Rejects empty, JSON-shaped and invented-title drafts.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    const reason = rejectDraft(data.draft ?? '', data.shortlist ?? [], ctx.services.catalog);
    if (reason !== undefined) {
      data.repair = reason;
      return { output: 'invalid', reason };
    }
    delete data.repair;
    data.answer = (data.draft ?? '').trim();
    data.source = 'model';
    return 'valid';
  },
});
