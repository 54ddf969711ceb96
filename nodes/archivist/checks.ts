import { type Catalog, normalise } from './catalog.ts';
import type { Book } from './types.ts';

const QUOTED = /"([^"\n]{2,100})"|“([^”\n]{2,100})”|\*([^*\n]{2,100})\*|_([^_\n]{2,100})_/g;

function looksLikeJson(text: string): boolean {
  if (/^(```|[{[])/.test(text)) return true;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

function sameTitle(quoted: string, title: string): boolean {
  const q = normalise(quoted);
  const t = normalise(title);
  return q === t || (q.length >= 4 && (t.startsWith(`${q} `) || t.endsWith(` ${q}`)));
}

/**
 * Checks a draft answer against the shortlist: returns why it is rejected, or undefined when it is good.
 * Rejects empty drafts, drafts shaped as JSON, drafts naming a catalog book outside the shortlist, drafts
 * quoting a title that is not on the shortlist (an invented book), and drafts naming no shortlisted book.
 */
export function rejectDraft(draft: string, shortlist: readonly Book[], catalog: Catalog): string | undefined {
  const text = draft.trim();
  if (text === '') return 'the draft is empty';
  if (looksLikeJson(text)) return 'the draft is JSON, not prose; answer in plain sentences';
  const allowed = new Set(shortlist.map((b) => b.id));
  // Descriptions of shortlisted books may use words that are also titles ("her beloved husband").
  const prose = shortlist.reduce((t, b) => t.split(b.description).join(' '), text);
  const outsider = catalog.titlesIn(prose).find((b) => !allowed.has(b.id) && prose.includes(b.title));
  if (outsider) return `the draft names "${outsider.title}", which is not in the shortlist`;
  for (const match of text.matchAll(QUOTED)) {
    const quoted = match[1] ?? match[2] ?? match[3] ?? match[4] ?? '';
    if (!shortlist.some((b) => sameTitle(quoted, b.title))) {
      return `the draft names "${quoted}", which is not in the shortlist; name only shortlisted books`;
    }
  }
  const named = shortlist.some((b) => normalise(text).includes(normalise(b.title)));
  if (!named) return 'the draft names no book from the shortlist';
  return undefined;
}
