/**
 * A batch of writes for the Redis store, in two steps around an optimistic transaction: {@link batchReads}
 * names the keys to watch and the reads a batch's checks need; {@link planBatch} checks every write against
 * what was read (and against the writes before it in the batch) with the same rules as the other stores,
 * and gives the commands that apply the batch. The store sends them in one MULTI/EXEC, which Redis drops
 * if a watched key changed meanwhile; the store then reads and plans again. A refused write refuses the
 * batch before any command is sent, so a batch is applied whole or not at all.
 */
import { checkEventPage, eventsTaken } from './event-pages.ts';
import { toJsonText } from './json.ts';
import { checkTakeover } from './lease.ts';
import { journalField, parseSpan, type RedisKeys, spanMember } from './redis-keys.ts';
import { pageBody } from './sqlite-rows.ts';
import { alreadyAnswered, leaseLost, runTaken, unknownRun } from './store-errors.ts';
import { type EventRecord, type Lease, type RunRecord, runOfWrite, type StoreWrite } from './types.ts';

/** A Redis command as its name and arguments. */
export type Command = [string, ...(string | number)[]];

/** What a batch needs read before it is planned: keys to watch, then reads, in order. */
export interface BatchReads {
  readonly watch: readonly string[];
  readonly reads: readonly Command[];
}

/** The span of events a write stores, or undefined when it stores none. */
function spanOf(write: StoreWrite): { first: number; last: number } | undefined {
  if (write.kind === 'event') return { first: write.event.seq, last: write.event.seq };
  if (write.kind === 'events') return checkEventPage(write);
  return undefined;
}

/**
 * The keys a batch watches and what it reads: each run's record and lease, whether each checkpoint's item,
 * each step and each answer's token already have a record, and the stored span of events nearest below
 * each span written. Watching a run's answers makes an answer given meanwhile by another writer fail the
 * transaction, which is then read and checked again.
 */
export function batchReads(batch: readonly StoreWrite[], keys: RedisKeys): BatchReads {
  const runs = [...new Set(batch.map(runOfWrite))];
  const watch: string[] = [];
  const reads: Command[] = [];
  for (const runId of runs) {
    watch.push(keys.run(runId), keys.lease(runId), keys.events(runId));
    reads.push(['get', keys.run(runId)], ['get', keys.lease(runId)]);
  }
  for (const write of batch) {
    if (write.kind === 'checkpoint') {
      const { runId, itemId } = write.checkpoint;
      watch.push(keys.checkpoints(runId));
      reads.push(['hexists', keys.checkpoints(runId), itemId]);
    } else if (write.kind === 'journal') {
      const { runId, itemPath, stepKey } = write.entry;
      watch.push(keys.journal(runId));
      reads.push(['hexists', keys.journal(runId), journalField(itemPath, stepKey)]);
    } else if (write.kind === 'answer') {
      const { runId, token } = write.answer;
      watch.push(keys.answers(runId));
      reads.push(['hexists', keys.answers(runId), token]);
    } else {
      const span = spanOf(write);
      if (span !== undefined) {
        reads.push(['zrevrangebyscore', keys.events(runOfWrite(write)), span.last, '-inf', 'LIMIT', 0, 1]);
      }
    }
  }
  return { watch: [...new Set(watch)], reads };
}

/** One run as the batch sees it: as read, then as the writes before the current one left it. */
interface RunView {
  record: RunRecord | undefined;
  lease: Lease | undefined;
  /** Spans written earlier in the batch. */
  readonly spans: { first: number; last: number }[];
  readonly checkpoints: Set<string>;
  readonly steps: Set<string>;
  /** Tokens answered earlier in the batch. */
  readonly answers: Set<string>;
}

/**
 * Checks the writes of `batch` in order against `results` (the answers to {@link batchReads}, in order) and
 * gives the commands that apply it. Throws the store error of the first write refused.
 */
export function planBatch(
  batch: readonly StoreWrite[],
  results: readonly unknown[],
  keys: RedisKeys,
): Command[] {
  const runs = [...new Set(batch.map(runOfWrite))];
  const views = new Map<string, RunView>();
  let next = 0;
  const read = () => results[next++];
  for (const runId of runs) {
    const record = read();
    const lease = read();
    views.set(runId, {
      record: typeof record === 'string' ? (JSON.parse(record) as RunRecord) : undefined,
      lease: typeof lease === 'string' ? (JSON.parse(lease) as Lease) : undefined,
      spans: [],
      checkpoints: new Set(),
      steps: new Set(),
      answers: new Set(),
    });
  }
  const commands: Command[] = [];
  for (const write of batch) {
    const view = views.get(runOfWrite(write)) as RunView;
    // These writes each read one result of their own, in batchReads' order.
    const found =
      write.kind === 'checkpoint' || write.kind === 'journal' || write.kind === 'answer' || spanOf(write)
        ? read()
        : undefined;
    plan(write, view, found, keys, commands);
  }
  return commands;
}

function plan(write: StoreWrite, view: RunView, found: unknown, keys: RedisKeys, out: Command[]): void {
  switch (write.kind) {
    case 'run': {
      const { run } = write;
      if (view.record !== undefined) throw runTaken(run.id);
      const text = toJsonText(run, `run '${run.id}'`);
      view.record = JSON.parse(text) as RunRecord;
      out.push(
        ['set', keys.run(run.id), text],
        ['zadd', keys.runs, run.createdAt, run.id],
        ['zadd', keys.byStatus(run.status), run.createdAt, run.id],
        ['zadd', keys.byDag(run.dag.iri), run.createdAt, run.id],
      );
      return;
    }
    case 'run-status': {
      const { update } = write;
      const before = view.record;
      if (before === undefined) throw unknownRun(update.runId, 'the status');
      const { finishedAt: _, ...rest } = before;
      const finishedAt = update.finishedAt ?? before.finishedAt;
      const after: RunRecord = {
        ...rest,
        status: update.status,
        updatedAt: update.at,
        ...(finishedAt === undefined ? {} : { finishedAt }),
      };
      view.record = after;
      out.push(
        ['set', keys.run(update.runId), JSON.stringify(after)],
        ['zrem', keys.byStatus(before.status), update.runId],
        ['zadd', keys.byStatus(after.status), after.createdAt, update.runId],
      );
      return;
    }
    case 'checkpoint': {
      const { checkpoint: c } = write;
      if (view.record === undefined) throw unknownRun(c.runId, `the checkpoint of item '${c.itemId}'`);
      // The recorder may have made the checkpoint's text already (see CheckpointWrite).
      const text = write.text ?? toJsonText(c, `the checkpoint of item '${c.itemId}'`);
      if (found !== 1 && !view.checkpoints.has(c.itemId))
        out.push(['rpush', keys.checkpointOrder(c.runId), c.itemId]);
      view.checkpoints.add(c.itemId);
      out.push(['hset', keys.checkpoints(c.runId), c.itemId, text]);
      return;
    }
    case 'journal': {
      const { entry: e } = write;
      if (view.record === undefined) throw unknownRun(e.runId, `step '${e.stepKey}'`);
      const field = journalField(e.itemPath, e.stepKey);
      // The first value committed for a step stays.
      if (found === 1 || view.steps.has(field)) return;
      view.steps.add(field);
      out.push(
        ['hset', keys.journal(e.runId), field, toJsonText(e, `step '${e.stepKey}'`)],
        ['rpush', keys.journalOrder(e.runId), field],
      );
      return;
    }
    case 'event':
    case 'events': {
      const runId = write.kind === 'event' ? write.event.runId : write.runId;
      const span = spanOf(write);
      if (view.record === undefined)
        throw unknownRun(runId, write.kind === 'event' ? `event ${write.event.seq}` : 'events');
      if (span === undefined) return;
      const stored = Array.isArray(found) && typeof found[0] === 'string' ? parseSpan(found[0]) : undefined;
      const overlaps = (s: { first: number; last: number }) => s.first <= span.last && s.last >= span.first;
      if ((stored !== undefined && overlaps(stored)) || view.spans.some(overlaps))
        throw eventsTaken(runId, span.first, span.last);
      view.spans.push(span);
      const events: readonly EventRecord[] = write.kind === 'event' ? [write.event] : write.events;
      const what = span.first === span.last ? `event ${span.first}` : `events ${span.first} to ${span.last}`;
      const json = toJsonText(pageBody(events), what);
      out.push(['zadd', keys.events(runId), span.first, spanMember(span.first, span.last, json)]);
      return;
    }
    case 'answer': {
      const { answer: a } = write;
      const what = `the answer to token '${a.token}'`;
      if (view.record === undefined) throw unknownRun(a.runId, what);
      if (found === 1 || view.answers.has(a.token)) throw alreadyAnswered(a.runId, a.token);
      view.answers.add(a.token);
      out.push(
        ['hset', keys.answers(a.runId), a.token, toJsonText(a, what)],
        ['rpush', keys.answerOrder(a.runId), a.token],
      );
      return;
    }
    case 'lease': {
      const { lease } = write;
      if (view.record === undefined) throw unknownRun(lease.runId, 'the lease');
      checkTakeover(view.lease, lease);
      view.lease = { ...lease };
      out.push(['set', keys.lease(lease.runId), JSON.stringify(view.lease)]);
      return;
    }
    case 'release': {
      if (view.lease?.token !== write.lease.token) return;
      view.lease = undefined;
      out.push(['del', keys.lease(write.lease.runId)]);
      return;
    }
    case 'held': {
      if (view.lease?.token !== write.lease.token) throw leaseLost(write.lease, view.lease);
      return;
    }
  }
}
