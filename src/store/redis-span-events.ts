import { fromJsonText } from './json.ts';
import { parseSpan } from './redis-keys.ts';
import { eventsFromPage } from './sqlite-rows.ts';
import type { EventRecord } from './types.ts';

/**
 * Appends to `out` the events of run `runId` that a member of its events set holds (see `spanMember`) whose
 * seq is above `after`. A span's text is a JSON list of `[seq, type, body]` entries or bodies alone without
 * their `runId` (a `PageEntry`), or, as a distributed worker's report writes its events, a time stamp then
 * `:` and a list of bodies without `seq`, `time` and `runId`: the span's events in seq order from its
 * first, all of that time, which are given back to each body (after its own keys, as a stream stamps it).
 */
export function eventsOfSpan(runId: string, member: string, after: number, out: EventRecord[]): void {
  const { first, json } = parseSpan(member);
  if (json.startsWith('[')) {
    eventsFromPage(runId, json, after, out);
    return;
  }
  const colon = json.indexOf(':');
  const time = Number(json.slice(0, colon));
  const bodies = fromJsonText<{ type: string; seq?: number; time?: number; runId?: string }[]>(
    json.slice(colon + 1),
  );
  for (let i = 0; i < bodies.length; i++) {
    const seq = first + i;
    if (seq <= after) continue;
    const body = bodies[i] as (typeof bodies)[number];
    body.seq = seq;
    body.time = time;
    body.runId = runId;
    out.push({ runId, seq, type: body.type, body });
  }
}
