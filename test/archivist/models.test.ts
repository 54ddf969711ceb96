import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFlakyModel, type FaultKind } from '../../nodes/archivist/models/flaky.ts';
import { createOpenAIModel } from '../../nodes/archivist/models/openai.ts';
import { ProviderError } from '../../nodes/archivist/models/provider-error.ts';
import { createRateLimitedModel } from '../../nodes/archivist/models/rate-limited.ts';
import { classifyMessages, composeMessages } from '../../nodes/archivist/prompts.ts';
import { classifyError } from '../../src/policy/classify.ts';
import { defaultClassification } from '../../src/policy/defaults.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { fixtureCatalog, services } from './helpers.ts';

const signal = new AbortController().signal;

async function faultsOf(seed: number, calls: number, rate = 0.5): Promise<string[]> {
  const kinds: string[] = [];
  const model = createFlakyModel(services().model, {
    rate,
    random: seededRandom(seed),
    onFault: (kind: FaultKind) => kinds.push(kind),
  });
  const controller = new AbortController();
  for (let i = 0; i < calls; i++) {
    const call = model.complete(classifyMessages('books by George Orwell', undefined), {
      signal: controller.signal,
    });
    // A hanging call ends only when its signal aborts.
    const outcome = await Promise.race([
      call.then(
        () => 'ok',
        (e: Error) => e.message,
      ),
      Promise.resolve('pending'),
    ]);
    if (outcome === 'pending') {
      controller.abort(new Error('deadline'));
      await call.catch(() => undefined);
      kinds.push('aborted');
    }
  }
  return kinds;
}

describe('offline model', () => {
  it('classifies with JSON and composes prose naming the shortlisted books', async () => {
    const model = services().model;
    const json = JSON.parse(
      await model.complete(classifyMessages('Who wrote Beloved?', undefined), { signal }),
    );
    expect(json).toMatchObject({ intent: 'find', title: 'Beloved' });
    const dune = fixtureCatalog().get('dune');
    if (!dune) throw new Error('fixture lost Dune');
    const text = await model.complete(
      composeMessages('q', 'describe', [{ ...dune, score: 1, strategies: [] }], undefined),
      {
        signal,
      },
    );
    expect(text).toMatch(/^"Dune" by Frank Herbert \(1965, 412 pages\)/);
  });
});

describe('flaky model', () => {
  it('injects the same faults for the same seed', async () => {
    const first = await faultsOf(7, 40);
    expect(await faultsOf(7, 40)).toEqual(first);
    expect(first.length).toBeGreaterThan(5);
    expect(await faultsOf(8, 40)).not.toEqual(first);
  });

  it('injects every kind of fault over enough calls', async () => {
    const kinds = new Set(await faultsOf(3, 200));
    expect([...kinds].sort()).toEqual(
      ['429', '503', 'aborted', 'empty', 'hang', 'invented', 'json', 'reset'].sort(),
    );
  });

  it('fails each call with the stated probability, the first call as often as any other', async () => {
    const rate = 0.3;
    // Every call of 2,000 (one seed): the share of faults is the rate.
    const faults = (await faultsOf(11, 2000, rate)).filter((k) => k !== 'aborted').length;
    expect(Math.abs(faults / 2000 - rate)).toBeLessThan(0.03);
    // The first call of 1,000 runs (seeds 1–1000) and their second calls: no healthy start, no bursts.
    let first = 0;
    let second = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const calls: number[] = [];
      const model = createFlakyModel(services().model, {
        rate,
        random: seededRandom(seed),
        onFault: (_kind, call) => calls.push(call),
      });
      const controller = new AbortController();
      for (let i = 0; i < 2; i++) {
        const call = model.complete(classifyMessages('books by George Orwell', undefined), {
          signal: controller.signal,
        });
        controller.abort(new Error('next'));
        await call.catch(() => undefined);
      }
      if (calls.includes(1)) first += 1;
      if (calls.includes(2)) second += 1;
    }
    expect(Math.abs(first / 1000 - rate)).toBeLessThan(0.05);
    expect(Math.abs(second / 1000 - rate)).toBeLessThan(0.05);
  });

  it('rate 0 never fails, rate 1 always does', async () => {
    expect((await faultsOf(5, 50, 0)).filter((k) => k !== 'aborted')).toEqual([]);
    expect((await faultsOf(5, 50, 1)).filter((k) => k !== 'aborted')).toHaveLength(50);
  });

  it('fails with errors the engine classifies as retryable, with Retry-After', () => {
    const busy = new ProviderError('HTTP 429', { status: 429, headers: { 'retry-after': '1' } });
    expect(classifyError(busy, defaultClassification)).toMatchObject({
      retryable: true,
      status: 429,
      retryAfter: '1',
    });
    const reset = new ProviderError('reset', { code: 'ECONNRESET' });
    expect(classifyError(reset, defaultClassification)).toMatchObject({ retryable: true, kind: 'network' });
  });
});

describe('rate-limited model', () => {
  const messages = classifyMessages('books by George Orwell', undefined);

  it('lets `limit` calls through per window, then answers 429 with the time left as Retry-After, in whole seconds', async () => {
    let now = 0;
    const limited: [number, number][] = [];
    const model = createRateLimitedModel(services().model, {
      limit: 2,
      windowMs: 1000,
      now: () => now,
      onLimited: (call, ms) => limited.push([call, ms]),
    });
    expect(model.name).toBe('offline+limit(2/1s)');
    const outcome = (at: number) => {
      now = at;
      return model.complete(messages, { signal }).then(
        () => 'ok',
        (e: unknown) => e,
      );
    };
    expect(await outcome(0)).toBe('ok');
    expect(await outcome(100)).toBe('ok');
    const refused = await outcome(250);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({
      status: 429,
      headers: { 'retry-after': '1' },
    });
    expect(classifyError(refused, defaultClassification)).toMatchObject({
      retryable: true,
      status: 429,
      retryAfter: '1',
    });
    // Refused calls count in no window; the next window starts with the first call after this one ended.
    expect(await outcome(999)).toBeInstanceOf(ProviderError);
    expect(await outcome(1000)).toBe('ok');
    expect(await outcome(1500)).toBe('ok');
    expect(await outcome(1999)).toBeInstanceOf(ProviderError);
    expect(await outcome(2400)).toBe('ok');
    expect(limited).toEqual([
      [3, 750],
      [4, 1],
      [7, 1],
    ]);
  });

  it('counts the calls of a flaky model in the same window, failed ones too', async () => {
    const model = createRateLimitedModel(
      createFlakyModel(services().model, { rate: 1, random: seededRandom(1) }),
      { limit: 1, windowMs: 1000, now: () => 0 },
    );
    expect(model.name).toBe('offline+flaky(1)+limit(1/1s)');
    // Whatever fault the first call gets (a hang ends at once: its signal is aborted), it was a request.
    await model.complete(messages, { signal: AbortSignal.abort() }).catch(() => undefined);
    const second = await model.complete(messages, { signal }).catch((e: unknown) => e);
    expect(second).toMatchObject({
      status: 429,
      message: expect.stringMatching(/simulated limit: 1 per 1 s/),
    });
  });
});

describe('OpenAI adapter', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  it('maps a 429 to a provider error carrying status and Retry-After, then answers', async () => {
    let calls = 0;
    const baseURL = await serve((req, res) => {
      req.resume();
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hello' } }],
        }),
      );
    });
    const model = createOpenAIModel({ baseURL, apiKey: 'k', model: 'm' });
    const error = await model
      .complete([{ role: 'user', content: 'hi' }], { signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(classifyError(error, defaultClassification)).toMatchObject({
      retryable: true,
      status: 429,
      retryAfter: '1',
    });
    expect(await model.complete([{ role: 'user', content: 'hi' }], { signal })).toBe('hello');
    expect(calls).toBe(2);
  });
});
