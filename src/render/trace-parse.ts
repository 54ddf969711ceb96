/**
 * Run trace text: the dispatcher's JSONL event stream read back, each line checked for the fields the
 * summary needs, a bad line named by file and line.
 */
import { SwitchyardError } from '../errors.ts';
import { EVENT_TYPES, type RunEvent } from '../runtime/events.ts';

const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

// The string fields each event type needs for the summary and the viewer's timelines; the rest of an event
// is not read.
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  'placement.start': ['dag', 'placement'],
  route: ['dag', 'from', 'output', 'to', 'kind'],
  'retry.scheduled': ['dag', 'from', 'to', 'budget'],
  salvage: ['dag', 'from', 'to'],
  'item.end': ['dag', 'terminal'],
  'gate.wait': ['item', 'dag', 'placement', 'gate', 'key'],
  'gate.passed': ['item', 'dag', 'placement', 'gate', 'key'],
  'gate.closed': ['gate', 'key', 'reason'],
  'gate.opened': ['gate', 'key'],
};

// The number fields likewise: a gate's times are drawn as dates and durations.
const NUMBERS: Readonly<Record<string, readonly string[]>> = {
  'gate.passed': ['waitedMs'],
  'gate.closed': ['untilMs'],
  'gate.opened': ['closedMs'],
};

/**
 * Parses JSONL run events; blank lines are skipped. A line that is not an event throws `E_TRACE` naming
 * the file and line.
 * @example
 * const events = parseTrace(await readFile('run.jsonl', 'utf8'), 'run.jsonl');
 */
export function parseTrace(text: string, file = 'trace'): RunEvent[] {
  const events: RunEvent[] = [];
  const lines = text.split(/\r?\n/u);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new SwitchyardError(
        'E_TRACE',
        `${where}: not a JSON event — ${(error as Error).message}; pass the file written by 'run --events'`,
        { cause: error },
      );
    }
    events.push(checkEvent(value, where));
  });
  return events;
}

function checkEvent(value: unknown, where: string): RunEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SwitchyardError('E_TRACE', `${where}: not a JSON event — expected an object with a 'type'`);
  }
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    throw new SwitchyardError(
      'E_TRACE',
      `${where}: not a JSON event — unknown type ${JSON.stringify(type)}; expected one of ${EVENT_TYPES.join(', ')}`,
    );
  }
  for (const field of REQUIRED[type] ?? []) {
    if (typeof record[field] !== 'string') {
      throw new SwitchyardError('E_TRACE', `${where}: '${type}' event lacks the string field '${field}'`);
    }
  }
  for (const field of NUMBERS[type] ?? []) {
    if (typeof record[field] !== 'number' || !Number.isFinite(record[field])) {
      throw new SwitchyardError('E_TRACE', `${where}: '${type}' event lacks the number field '${field}'`);
    }
  }
  if (type === 'retry.scheduled' && record.output !== undefined && typeof record.output !== 'string') {
    throw new SwitchyardError('E_TRACE', `${where}: 'retry.scheduled' event has a non-string 'output'`);
  }
  if (type === 'retry.scheduled' && typeof record.delayMs !== 'number') {
    throw new SwitchyardError(
      'E_TRACE',
      `${where}: 'retry.scheduled' event lacks the number field 'delayMs'`,
    );
  }
  return value as RunEvent;
}
