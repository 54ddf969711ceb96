/** The text forms of `switchyard runs` and `runs show`: an aligned table, and a run with one block per item. */
import type { ItemEnding } from '../../store/types.ts';
import { formatDuration, plural } from '../format.ts';
import { displayPath } from '../output.ts';
import type { ParkedView, PendingAnswerView } from './await-views.ts';
import type { GateKeyStateView, GateWaitView } from './gate-views.ts';
import type { ItemView, RunRow, RunView } from './views.ts';

/** Rows of cells as columns padded to their widest cell, two spaces apart, without trailing blanks. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The listing of runs as a table, newest first, with a last line when more runs match than were shown.
 * @example
 * runTable(rows, false) // ['ID  STATUS  DAG  CREATED  DURATION  ITEMS', 'r1  completed  …']
 */
export function runTable(rows: readonly RunRow[], more: boolean): string[] {
  const table = columns([
    ['ID', 'STATUS', 'DAG', 'CREATED', 'DURATION', 'ITEMS'],
    ...rows.map((r) => [
      r.id,
      r.status === 'waiting' ? 'waiting (answer)' : r.status,
      r.dag,
      r.createdAt,
      r.durationMs === undefined ? '-' : formatDuration(r.durationMs),
      r.items === undefined ? '-' : String(r.items),
    ]),
  ]);
  if (more) table.push('(more runs match: raise --limit to see them)');
  if (rows.some((r) => r.status === 'waiting')) {
    table.push(
      '(a waiting run holds no process until an answer: `switchyard runs show <id>` says how to answer it)',
    );
  }
  return table;
}

function endingText(ending: ItemEnding): string {
  switch (ending.kind) {
    case 'terminal':
      return `ended at terminal ${ending.placement} (${ending.outcome})`;
    case 'failure':
      return `failed ${ending.code}${ending.placement === undefined ? '' : ` at ${ending.placement}`}: ${ending.message}`;
    case 'aborted':
      return `aborted: ${ending.reason}`;
  }
}

/** Fields of an item's data shown in text; `--json` has them all. */
const DATA_FIELDS = 8;
/** Characters of one field's value shown in text. */
const DATA_WIDTH = 400;

/**
 * The scalar fields of an input item's data, one line each (`question`, `answer`, …), so that a run's
 * record says what it was asked and what it gave without opening the JSON.
 */
function dataLines(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  const fields = Object.entries(data).filter(
    ([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
  );
  const lines = fields.slice(0, DATA_FIELDS).map(([name, value]) => {
    const text = JSON.stringify(value);
    const shown = text.length > DATA_WIDTH ? `${text.slice(0, DATA_WIDTH - 1)}…` : text;
    return `  ${`data.${name}`.padEnd(9)} ${shown}`;
  });
  if (fields.length > DATA_FIELDS)
    lines.push(`  (${fields.length - DATA_FIELDS} more fields: --json shows them)`);
  return lines;
}

/** Ids of the items waiting at a gate key shown in text. */
const GATE_ITEMS = 10;

/** Why an item waits at a gate: `closed until …`, `paced until …`, `every place taken (concurrency)`. */
function gateWaitText(wait: GateWaitView): string {
  const until = wait.until === undefined ? '' : ` until ${wait.until}`;
  const why =
    wait.why === 'closed'
      ? `closed${until}`
      : wait.why === 'rate'
        ? `paced (rate)${until}`
        : 'every place taken (concurrency)';
  return `waiting at gate ${wait.gate} (key ${wait.key}), ${why}`;
}

/** A gate key's state: `closed until … (HTTP 429, Retry-After 1 min)` or `open`, and its items waiting. */
function gateKeyText(key: GateKeyStateView): string {
  const cause =
    key.reason === undefined
      ? ''
      : `${key.reason}${key.hintMs === undefined ? '' : `, Retry-After ${formatDuration(key.hintMs)}`}`;
  let state: string;
  if (key.state === 'closed') state = `closed until ${key.until}${cause === '' ? '' : ` (${cause})`}`;
  else if (cause === '') state = 'open';
  else {
    const lasted = key.closedMs === undefined ? '' : ` ${formatDuration(key.closedMs)}`;
    state = `open (last closed${lasted}: ${cause})`;
  }
  if (key.waiting === 0) return `${key.key}  ${state}`;
  const shown = key.items.slice(0, GATE_ITEMS).join(', ');
  const more = key.waiting > GATE_ITEMS ? `, … (--json lists them all)` : '';
  return `${key.key}  ${state}; ${plural(key.waiting, 'item')} waiting: ${shown}${more}`;
}

/** The lines of one item: where it is or how it ended, then its retries, waits and budgets. */
function itemLines(item: ItemView): string[] {
  const { position } = item;
  const where = [...position.path, position.placement].join(' › ');
  const at = `${where} (${position.dag}, visit ${position.visit})`;
  let head: string;
  if (item.ending !== undefined) head = `${endingText(item.ending)}; last at ${at}`;
  else if (item.wait !== undefined) head = `waiting at ${at} until ${item.wait.until} (${item.wait.reason})`;
  else head = `active at ${at}`;
  const lines = [`item ${item.id}  ${head}`];
  if (item.gate !== undefined) lines.push(`  gate     ${gateWaitText(item.gate)}`);
  if (item.retries > 0 || item.waits.length > 0) {
    const waited = item.waits.reduce((sum, w) => sum + w.delayMs, 0);
    const list = item.waits.map(
      (w) => `${w.placement} +${formatDuration(w.delayMs)}${w.source === undefined ? '' : ` ${w.source}`}`,
    );
    lines.push(
      `  retries  ${item.retries}${item.waits.length > 0 ? `, waited ${formatDuration(waited)}: ${list.join(', ')}` : ''}`,
    );
  }
  const budgets = Object.entries(item.budgets);
  if (budgets.length > 0) lines.push(`  budgets  ${budgets.map(([name, n]) => `${name} ${n}`).join(', ')}`);
  lines.push(...dataLines(item.data));
  return lines;
}

/** The lines of the items parked at awaits, and of the answers recorded that no item has taken yet. */
function awaitLines(parked: readonly ParkedView[], answers: readonly PendingAnswerView[]): string[] {
  const lines: string[] = [];
  for (const p of parked) {
    lines.push(
      `  await    item ${p.item} at ${p.placement} (visit ${p.visit}) token ${p.token}, expects ${p.answers.join(' | ')}, deadline ${p.deadline} (${p.deadlineIn})`,
      `           ${p.command}`,
    );
  }
  for (const a of answers) {
    lines.push(
      `  answered ${a.token} with ${a.output} at ${a.answeredAt}, not taken yet${a.data === undefined ? '' : ` (data ${JSON.stringify(a.data).slice(0, DATA_WIDTH)})`}`,
    );
  }
  return lines;
}

/** A run for people: its record, then each item; the DAG's file is shown relative to `cwd` when below it. */
export function runText(view: RunView, cwd: string): string[] {
  const lines = [`run ${view.id}  ${view.status}`];
  const field = (name: string, value: string) => lines.push(`  ${name.padEnd(9)}${value}`);
  field(
    'dag',
    `${view.dag.iri}  sha256 ${view.dag.hash}${view.dag.file ? `  (${displayPath(view.dag.file, cwd)})` : ''}`,
  );
  for (const d of view.documents) field('embeds', `${d.iri}  sha256 ${d.hash}`);
  field('policy', `sha256 ${view.policyHash}`);
  field('created', view.createdAt);
  if (view.finishedAt !== undefined && view.durationMs !== undefined)
    field('finished', `${view.finishedAt}  after ${formatDuration(view.durationMs)}`);
  else field('updated', view.updatedAt);
  field('engine', `${view.engineVersion} (record format ${view.formatVersion})`);
  if (view.lease !== undefined) {
    const holder = `process ${view.lease.pid} on ${view.lease.host}`;
    field(
      'lease',
      view.lease.live
        ? `held by ${holder} until ${view.lease.expiresAt}`
        : `expired at ${view.lease.expiresAt} (${holder})`,
    );
  }
  const counts = (['active', 'waiting', 'ended'] as const)
    .map((s) => [s, view.items.filter((i) => i.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  field(
    'items',
    `${plural(view.items.length, 'item')} recorded${counts.length ? ` (${counts.join(', ')})` : ''}`,
  );
  for (const key of view.gates) field('gate', gateKeyText(key));
  lines.push(...awaitLines(view.parked, view.answers));
  for (const item of view.items) lines.push(...itemLines(item));
  return lines;
}
