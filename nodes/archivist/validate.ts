import { defineNode } from '../../src/runtime/node.ts';
import { rejectDraft } from './checks.ts';
import { echoIn } from './echo.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** Checks the draft: a good one becomes the answer; a bad one goes to `invalid` with a repair hint. */
export const validate = defineNode<'valid' | 'invalid', ArchivistServices>({
  id: nodeIri('validate'),
  outputs: ['valid', 'invalid'],
  description: 'Rejects empty, JSON-shaped, invented-title and echoed-prompt drafts.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    const shortlist = data.shortlist ?? [];
    const reason =
      rejectDraft(data.draft ?? '', shortlist, ctx.services.catalog) ??
      echoIn(data.draft ?? '', data.question, data.intent ?? 'find', shortlist);
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
