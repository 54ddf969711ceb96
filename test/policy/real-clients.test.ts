/**
 * Retry-After hints as real clients throw them: the AI SDK (APICallError, RetryError), the openai SDK
 * (RateLimitError), fetch, ky, got and axios, each calling a local server on 127.0.0.1 that answers 429 with
 * one hint form. The wait is the hint's, cut to the policy's cap; a hint that is none of RFC 9110's forms
 * gives the back-off and a warning.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import axios from 'axios';
import got from 'got';
import ky from 'ky';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { recorder } from '../runtime/helpers.ts';
import { type HintServer, httpDates, type Script, startHintServer } from './hint-server.ts';

/** The wall clock when each run starts: an HTTP-date hint is an instant after it. */
const WALL = Date.UTC(2030, 0, 1, 12, 0, 0);
const CAP_MS = 10_000;
const BACKOFF_MS = 7;

/** A call to the server at `base` (a path prefix of it) that resolves on a 200 and throws as the client does. */
type Call = (base: string) => Promise<unknown>;

const aiSdk =
  (maxRetries: number): Call =>
  (base) =>
    generateText({
      model: createOpenAICompatible({ name: 'local', baseURL: `${base}/v1`, apiKey: 'test' }).chatModel(
        'local',
      ),
      prompt: 'hello',
      maxRetries,
    });

const CLIENTS: [string, Call][] = [
  ["the AI SDK's APICallError", aiSdk(0)],
  [
    "the openai SDK's RateLimitError",
    (base) =>
      new OpenAI({ baseURL: `${base}/v1`, apiKey: 'test', maxRetries: 0 }).chat.completions.create({
        model: 'local',
        messages: [{ role: 'user', content: 'hello' }],
      }),
  ],
  [
    'a fetch Response thrown as it is',
    async (base) => {
      const response = await fetch(`${base}/v1/chat/completions`);
      if (!response.ok) throw response;
      return response.json();
    },
  ],
  [
    'an Error whose cause is the fetch Response',
    async (base) => {
      const response = await fetch(`${base}/v1/chat/completions`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`, { cause: response });
      return response.json();
    },
  ],
  ["ky's HTTPError", (base) => ky.get(`${base}/v1/chat/completions`, { retry: 0 }).json()],
  ["got's HTTPError", (base) => got(`${base}/v1/chat/completions`, { retry: { limit: 0 } }).json()],
  ["axios's AxiosError", (base) => axios.get(`${base}/v1/chat/completions`)],
];

const dates = (ms: number) => httpDates(WALL + ms);

/** [form, the refusal's headers, the wait in ms]. */
const FORMS: [string, Record<string, string>, number][] = [
  ['retry-after-ms', { 'retry-after-ms': '1500' }, 1500],
  ['retry-after in seconds', { 'retry-after': '2' }, 2000],
  ['retry-after as an IMF-fixdate', { 'retry-after': dates(3000).imf }, 3000],
  ['retry-after as an RFC 850 date', { 'retry-after': dates(4000).rfc850 }, 4000],
  ['retry-after as an asctime date', { 'retry-after': dates(5000).asctime }, 5000],
  ['retry-after past the cap', { 'retry-after': '3600' }, CAP_MS],
  ['retry-after-ms past the cap', { 'retry-after-ms': '90000' }, CAP_MS],
];

const flow = dag('urn:test:real-clients', { name: 'real clients', version: '1' })
  .budget('again', 2)
  .entry('call')
  .task('call', 'urn:test:call')
  .route('ok', 'done')
  .retry('retry', 'call', { budget: 'again', exhausted: 'gave_up' })
  .route('error', 'refused')
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .terminal('refused', 'failed')
  .build();

let server: HintServer;
let prefixes = 0;
beforeAll(async () => {
  server = await startHintServer();
});
afterAll(() => server.close());

/** Runs one item whose node calls the server through `call`, the server answering `script` first. */
async function runAgainst(call: Call, script: Script) {
  const prefix = `p${prefixes++}`;
  const base = server.script(prefix, script);
  const node = defineNode({
    id: 'urn:test:call',
    outputs: ['ok'],
    run: async () => {
      await call(base);
      return 'ok';
    },
  });
  const rec = recorder();
  const result = await createDispatcher({
    nodes: [node],
    clock: createVirtualClock({ auto: true, wallStart: WALL }),
    policy: {
      defaults: {
        backoff: { strategy: 'constant', baseMs: BACKOFF_MS },
        jitter: 'none',
        retryAfter: { capMs: CAP_MS },
      },
    },
  }).run(flow, {}, { onEvent: rec.onEvent });
  return { result, rec, hits: server.hits.get(prefix) };
}

describe.each(CLIENTS)('%s answered 429', (_client, call) => {
  it.each(FORMS)('with %s: the wait is the hint, capped', async (_form, headers, ms) => {
    const { result, rec, hits } = await runAgainst(call, [{ headers }]);
    expect(result.items).toMatchObject([{ terminal: 'done' }]);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: ms, delaySource: 'retry-after' }]);
    expect(rec.of('warning')).toEqual([]);
    expect(hits).toBe(2);
  });

  it('with a retry-after that is no HTTP-date: the back-off, and a warning', async () => {
    const { result, rec } = await runAgainst(call, [{ headers: { 'retry-after': 'Later, 2030' } }]);
    expect(result.items).toMatchObject([{ terminal: 'done' }]);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: BACKOFF_MS, delaySource: 'backoff' }]);
    expect(rec.of('warning')).toMatchObject([{ code: 'W_RETRY_AFTER_IGNORED' }]);
  });

  it('with a 413 and a retry-after: retried after the hint; without one: the error route', async () => {
    const hinted = await runAgainst(call, [{ status: 413, headers: { 'retry-after': '2' } }]);
    expect(hinted.result.items).toMatchObject([{ terminal: 'done' }]);
    expect(hinted.rec.of('retry.scheduled')).toMatchObject([{ delayMs: 2000 }]);
    const plain = await runAgainst(call, [{ status: 413, headers: {} }]);
    expect(plain.result.items).toMatchObject([{ terminal: 'refused' }]);
  });
});

describe("the AI SDK's RetryError", () => {
  it('waits the latest attempt’s hint, not the first one’s', async () => {
    const script = [{ headers: { 'retry-after-ms': '1' } }, { headers: { 'retry-after-ms': '1500' } }];
    const { result, rec, hits } = await runAgainst(aiSdk(1), script);
    expect(result.items).toMatchObject([{ terminal: 'done' }]);
    expect(rec.of('retry.scheduled')).toMatchObject([{ delayMs: 1500, delaySource: 'retry-after' }]);
    expect(hits).toBe(3);
  });
});
