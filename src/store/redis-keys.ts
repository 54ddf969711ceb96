/**
 * Where the Redis run store keeps each record. Every key starts with the store's prefix, so several stores
 * (a test's, another team's) share one Redis without seeing each other. A run's own keys carry its id in
 * braces, a Redis Cluster hash tag, so that they would share a slot; the listing indexes are shared by all
 * runs.
 */

/** The keys of one store namespace. */
export interface RedisKeys {
  /** A run's record, as JSON text. */
  run(runId: string): string;
  /** Every run's id, scored by its creation time. */
  readonly runs: string;
  /** The ids of the runs with a status, scored by creation time. */
  byStatus(status: string): string;
  /** The ids of the runs of a DAG, scored by creation time. */
  byDag(iri: string): string;
  /** A hash of the run's latest checkpoint per item id. */
  checkpoints(runId: string): string;
  /** The run's item ids in the order their first checkpoint was written. */
  checkpointOrder(runId: string): string;
  /** A hash of the run's step values per {@link journalField}. */
  journal(runId: string): string;
  /** The run's journal fields in commit order. */
  journalOrder(runId: string): string;
  /** A hash of the run's answers (JSON text) per answer token. */
  answers(runId: string): string;
  /** The run's answer tokens in the order they were answered. */
  answerOrder(runId: string): string;
  /** The run's events: a sorted set of spans (a page, or one event) scored by their first seq. */
  events(runId: string): string;
  /** The run's lease, as JSON text. */
  lease(runId: string): string;
}

/** The keys of the namespace `prefix` (for example `switchyard:`). */
export function redisKeys(prefix: string): RedisKeys {
  const of = (runId: string, what: string) => `${prefix}run:{${runId}}:${what}`;
  return {
    run: (runId) => of(runId, 'record'),
    runs: `${prefix}runs`,
    byStatus: (status) => `${prefix}runs:status:${status}`,
    byDag: (iri) => `${prefix}runs:dag:${iri}`,
    checkpoints: (runId) => of(runId, 'checkpoints'),
    checkpointOrder: (runId) => of(runId, 'checkpoint-order'),
    journal: (runId) => of(runId, 'journal'),
    journalOrder: (runId) => of(runId, 'journal-order'),
    answers: (runId) => of(runId, 'answers'),
    answerOrder: (runId) => of(runId, 'answer-order'),
    events: (runId) => of(runId, 'events'),
    lease: (runId) => of(runId, 'lease'),
  };
}

/** Every key of a run's own records (not the listing indexes). */
export function runOwnKeys(keys: RedisKeys, runId: string): string[] {
  return [
    keys.run(runId),
    keys.checkpoints(runId),
    keys.checkpointOrder(runId),
    keys.journal(runId),
    keys.journalOrder(runId),
    keys.answers(runId),
    keys.answerOrder(runId),
    keys.events(runId),
    keys.lease(runId),
  ];
}

/** The hash field of a step: item path and step key, which may hold any character, told apart by length. */
export function journalField(itemPath: string, stepKey: string): string {
  return `${itemPath.length}:${itemPath}${stepKey}`;
}

/**
 * A span of events as a member of the events set: its first and last seq, then the JSON text of its
 * `[seq, type, body]` entries (or the forms `eventsOfSpan` reads beside them, which a distributed worker's
 * report writes). Spans never overlap, so no two members of a run share a first seq.
 */
export function spanMember(first: number, last: number, json: string): string {
  return `${first}:${last}:${json}`;
}

/** The first and last seq and the JSON text of a {@link spanMember}. */
export function parseSpan(member: string): { first: number; last: number; json: string } {
  const a = member.indexOf(':');
  const b = member.indexOf(':', a + 1);
  return {
    first: Number(member.slice(0, a)),
    last: Number(member.slice(a + 1, b)),
    json: member.slice(b + 1),
  };
}
