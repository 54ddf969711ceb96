/**
 * Checks of what `inspect --json` and `render -o out.mmd` wrote: worst-case counts that are whole numbers
 * with all their digits, and Mermaid text whose only directive is the renderer's own.
 */
import { parseJson } from './run-checks.ts';

/**
 * The worst-case counts of `inspect --json` as written, in order: `placements` first, then the count per
 * item. They are read from the text, because a count past 2^53 may be written as a JSON number with all its
 * digits, which `JSON.parse` would round.
 */
export function writtenCounts(text: string): {
  readonly placements: string[];
  readonly perItem: string | undefined;
} {
  const token = (name: string) => new RegExp(`"${name}": ("[^"]*"|[^,\\n}]+)`, 'g');
  const strip = (t: string) => t.trim().replace(/^"(.*)"$/, '$1');
  return {
    placements: [...text.matchAll(token('worstCaseExecutions'))].map((m) => strip(m[1] ?? '')),
    perItem: [...text.matchAll(token('worstCaseExecutionsPerItem'))].map((m) => strip(m[1] ?? ''))[0],
  };
}

/**
 * A document that validates has a proof that every loop ends, so each worst-case count `inspect --json`
 * gives is a whole number, written with all its digits (a JSON number or a string).
 */
export function boundProblems(text: string): string[] {
  const { placements, perItem } = writtenCounts(text);
  const keys = ((parseJson(text) as { placements?: { key?: unknown }[] } | undefined)?.placements ?? []).map(
    (p) => p.key,
  );
  const problems = placements.flatMap((count, i) =>
    /^[0-9]+$/.test(count) ? [] : [`worst case of '${String(keys[i])}' is ${count}, not a whole count`],
  );
  if (perItem === undefined || !/^[0-9]+$/.test(perItem))
    problems.push(`worst case per item is ${perItem}, not a whole count`);
  return problems.slice(0, 3);
}

/**
 * The Mermaid text of a document is the renderer's own: one `%%{init}%%` directive, the first line, and no
 * other line a document's text could turn into a directive or a new statement.
 */
export function diagramProblems(text: string): string[] {
  if (text === '') return ['render exited 0 but wrote no out.mmd'];
  const lines = text.split('\n');
  const problems: string[] = [];
  // Mermaid finds a directive anywhere in the text, comments included.
  const directives = text.split('%%{').length - 1;
  if (directives !== 1 || !(lines[0] ?? '').startsWith('%%{')) {
    const extra = lines.slice(1).find((l) => l.includes('%%{')) ?? '';
    problems.push(
      `out.mmd has ${directives} %%{…}%% directives, one from the document: ${extra.trim().slice(0, 160)}`,
    );
  }
  if (lines.some((l) => /^\s*(click|callback)\b/.test(l)))
    problems.push('out.mmd has a click/callback statement');
  return problems;
}
