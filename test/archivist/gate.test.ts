/**
 * The Archivist's gate `model`: a rate-limit answer of its provider (simulated with `--rate-limit`, or a
 * real 429 from an OpenAI- or Ollama-protocol server on 127.0.0.1) closes the gate, the calls that come
 * meanwhile wait at it instead of each getting a 429 of its own, and no question runs out of budget. All on
 * the virtual clock.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskOutcome } from '../../examples/archivist/engine.ts';
import { OFFLINE_POLICY_FILE, POLICY_FILE } from '../../examples/archivist/paths.ts';
import { openSession } from '../../examples/archivist/session.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { answerLikeAModel, closeModelServers, isClassify, serveModel } from './model-server.ts';
import { runMain, virtualEnv } from './run-main.ts';

afterEach(closeModelServers);

const readPolicy = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PolicyInput;

function eventsIn(file: string): RunEvent[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RunEvent);
}

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** The 429s the model calls got. */
const rateLimited = (events: readonly RunEvent[]) =>
  ofType(events, 'placement.end').filter((e) => e.error?.message.startsWith('HTTP 429'));

describe('archivist ask --flaky --rate-limit: the gate in the trace', () => {
  const args = [
    'ask',
    '--no-store',
    '--trace',
    '--flaky',
    '0.3',
    '--rate-limit',
    '1',
    '--seed',
    '1',
    'recommend something like Dune',
  ];

  it('a 429 closes gate model until its Retry-After, the retry goes through as it opens, no budget runs out', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'archivist-gate-')), 'run.jsonl');
    const run = await runMain([...args.slice(0, -1), '--events', file, args.at(-1) as string]);
    expect(run.code).toBe(0);
    const [notices, trace] = run.err.split('Trace:\n');
    expect(notices).toBe(
      'archivist: rate-limited by offline (--flaky, --rate-limit), retrying in 1 s\n'.repeat(2),
    );
    expect(trace).toContain(
      [
        '  ⏸ gate model closed by classify: HTTP 429, Retry-After 1000 ms',
        '  ✗ classify failed: HTTP 429 Too Many Requests (simulated limit: 1 per 1 s)',
        '  ↻ retry classify → classify (budget classify, attempt 2) after 1000 ms [retry-after]: HTTP 429 Too Many Requests (simulated limit: 1 per 1 s)',
        '  → classify (visit 3)',
        '  ⏵ gate model open after 1000 ms',
      ].join('\n'),
    );
    expect(trace).toContain(
      [
        '    ⏸ gate model closed by compose: HTTP 429, Retry-After 1000 ms',
        '    ✗ compose failed: HTTP 429 Too Many Requests (simulated limit: 1 per 1 s)',
        '    ↻ retry compose → compose (budget transient, attempt 1) after 1000 ms [retry-after]: HTTP 429 Too Many Requests (simulated limit: 1 per 1 s)',
        '    → answer › compose (visit 2)',
        '  ⏵ gate model open after 1000 ms',
      ].join('\n'),
    );
    const events = eventsIn(file);
    expect(ofType(events, 'gate.closed')).toEqual([
      expect.objectContaining({ gate: 'model', key: 'model', reason: 'HTTP 429', hintMs: 1000 }),
      expect.objectContaining({ gate: 'model', key: 'model', reason: 'HTTP 429', hintMs: 1000 }),
    ]);
    expect(ofType(events, 'gate.opened').map((e) => e.closedMs)).toEqual([1000, 1000]);
    expect(ofType(events, 'budget.exhausted')).toEqual([]);
    expect(ofType(events, 'salvage')).toEqual([]);
    const answer = JSON.parse(
      (await runMain(['ask', '--no-store', '--json', ...args.slice(3)])).out,
    ) as AskOutcome;
    expect(answer).toMatchObject({ source: 'model', classifiedBy: 'model' });
  });

  it('prints the same trace for the same seed', async () => {
    const first = await runMain(args);
    const second = await runMain(args);
    expect(second.err).toBe(first.err);
    expect(second.out).toBe(first.out);
  });
});

const READERS = [
  'books by George Orwell',
  'recommend something like Dune',
  'who wrote Beloved?',
  'books by Ursula K. Le Guin',
  'a short novel about grief',
  'something like The Hobbit',
];

/** Six questions asked at once of one session whose simulated provider takes 3 requests a second. */
async function askAtOnce(policy: PolicyInput): Promise<AskOutcome[]> {
  const { io } = virtualEnv({ policy });
  const session = await openSession({ llm: 'offline', seed: 1, rateLimit: 3 }, io);
  try {
    return await Promise.all(READERS.map((q) => session.engine.ask(q)));
  } finally {
    await session.close();
  }
}

describe('several questions at once share gate model', () => {
  it('the calls that come while it is closed wait at it; no question runs out of budget', async () => {
    const gated = await askAtOnce(readPolicy(OFFLINE_POLICY_FILE));
    const events = gated.flatMap((o) => o.events);
    // Each closing is told to every run with a call at the gate: counted once by its end.
    const closings = new Set(ofType(events, 'gate.closed').map((e) => e.untilMs));
    expect(closings.size).toBe(3);
    const waits = ofType(events, 'gate.wait');
    expect(waits.length).toBe(5);
    for (const wait of waits) expect(wait).toMatchObject({ gate: 'model', key: 'model', why: 'closed' });
    expect(ofType(events, 'gate.opened').length).toBeGreaterThan(0);
    expect(ofType(events, 'budget.exhausted')).toEqual([]);
    for (const outcome of gated) {
      expect(outcome).toMatchObject({ status: 'completed', source: 'model', classifiedBy: 'model' });
    }

    // The same questions without the gate: each call meets the limit on its own, and budgets run out.
    const { gates: _gates, ...ungatedPolicy } = readPolicy(OFFLINE_POLICY_FILE) as PolicyInput & {
      gates?: unknown;
    };
    const ungated = await askAtOnce(ungatedPolicy);
    const without = ungated.flatMap((o) => o.events);
    expect(ofType(without, 'gate.closed')).toEqual([]);
    expect(rateLimited(events).length).toBe(7);
    expect(rateLimited(without).length).toBe(14);
    expect(ofType(without, 'budget.exhausted').length).toBe(3);
    expect(ungated.filter((o) => o.source !== 'model' || o.classifiedBy !== 'model').length).toBe(3);
  });
});

/** The real model's policy with the deadlines off (the virtual clock cannot see real I/O). */
const REAL_GATES = { defaults: { jitter: 'none' as const }, gates: readPolicy(POLICY_FILE).gates ?? {} };

describe("a real provider's 429 closes gate model", () => {
  it('OpenAI-compatible: the Retry-After of the 429 is how long the gate stays closed', async () => {
    let calls = 0;
    const { baseURL } = await serveModel((body, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
        res.end(JSON.stringify({ error: { message: 'rate limited', type: 'rate_limit_exceeded' } }));
        return;
      }
      answerLikeAModel(body, res);
    });
    const file = join(mkdtempSync(join(tmpdir(), 'archivist-gate-')), 'run.jsonl');
    const run = await runMain(
      [
        'ask',
        '--no-store',
        '--llm',
        'openai',
        '--base-url',
        baseURL,
        '--model',
        'local',
        '--events',
        file,
        'books by George Orwell',
      ],
      { env: { OPENAI_API_KEY: 'test-key' }, policy: REAL_GATES },
    );
    expect(run.code).toBe(0);
    const events = eventsIn(file);
    expect(ofType(events, 'gate.closed')).toEqual([
      expect.objectContaining({ gate: 'model', placement: 'classify', reason: 'HTTP 429', hintMs: 2000 }),
    ]);
    expect(ofType(events, 'gate.opened')).toEqual([expect.objectContaining({ closedMs: 2000 })]);
  });

  it('Ollama: its error keeps the status and the Retry-After, and the gate closes for it', async () => {
    let calls = 0;
    const { baseURL } = await serveModel((body, res: ServerResponse) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '3' });
        res.end('too many requests');
        return;
      }
      const content = isClassify(body)
        ? '{"intent": "find", "title": null, "author": "George Orwell", "subjects": [], "keywords": "orwell"}'
        : 'Read "Animal Farm" by George Orwell.';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ model: 'local', message: { role: 'assistant', content }, done: true }));
    });
    const host = baseURL.replace(/\/v1$/, '');
    const file = join(mkdtempSync(join(tmpdir(), 'archivist-gate-')), 'run.jsonl');
    const run = await runMain(
      [
        'ask',
        '--no-store',
        '--trace',
        '--llm',
        'ollama',
        '--base-url',
        host,
        '--model',
        'local',
        '--events',
        file,
        'books by George Orwell',
      ],
      { policy: REAL_GATES },
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain('archivist: rate-limited by ollama, retrying in 3 s');
    expect(run.err).toContain('✗ classify failed: HTTP 429 from Ollama: too many requests');
    const events = eventsIn(file);
    expect(ofType(events, 'gate.closed')).toEqual([
      expect.objectContaining({ gate: 'model', placement: 'classify', reason: 'HTTP 429', hintMs: 3000 }),
    ]);
    expect(ofType(events, 'retry.scheduled')).toEqual([
      expect.objectContaining({ from: 'classify', delayMs: 3000, delaySource: 'retry-after' }),
    ]);
    expect(calls).toBe(3);
  });
});
