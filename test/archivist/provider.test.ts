import { afterEach, describe, expect, it } from 'vitest';
import {
  answerLikeAModel,
  closeModelServers,
  completion,
  failure,
  isClassify,
  type RequestBody,
  serveModel,
} from './model-server.ts';
import { runMain } from './run-main.ts';

afterEach(closeModelServers);

const NO_DEADLINES = { defaults: { jitter: 'none' as const } };

function ask(baseURL: string, question: string, ...flags: string[]) {
  return runMain(['ask', '--llm', 'openai', '--base-url', baseURL, '--model', 'local', ...flags, question], {
    env: { OPENAI_API_KEY: 'test-key' },
    policy: NO_DEADLINES,
  });
}

describe('a provider that refuses the key or the model', () => {
  it('401: one warning line naming openai, the status and the key to fix; the catalog answers; exit 3', async () => {
    let calls = 0;
    const { baseURL } = await serveModel((_body, res) => {
      calls += 1;
      failure(res, 401, 'Incorrect API key provided');
    });
    const run = await ask(baseURL, 'books by George Orwell');
    expect(run.code).toBe(3);
    expect(run.err).toBe(
      `archivist: openai at ${baseURL} answered HTTP 401: the API key in OPENAI_API_KEY was refused; set a valid key (answers come from the catalog without the model)\n`,
    );
    expect(run.out).toContain('"Animal Farm" by George Orwell');
    // After the refusal no further request is made: compose goes straight to the catalog's answer.
    expect(calls).toBe(1);
  });

  it('404: the warning names the unknown model and --model', async () => {
    const { baseURL } = await serveModel((_body, res) =>
      failure(res, 404, 'The model `nope` does not exist'),
    );
    const run = await runMain(
      [
        'ask',
        '--llm',
        'openai',
        '--base-url',
        baseURL,
        '--model',
        'nope',
        '--json',
        'books by George Orwell',
      ],
      { env: { OPENAI_API_KEY: 'k' }, policy: NO_DEADLINES },
    );
    expect(run.code).toBe(3);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(
      /^archivist: openai at .* answered HTTP 404: it does not know model 'nope'; check --model/,
    );
    const json = JSON.parse(run.out) as { refused?: string[] };
    expect(json).toMatchObject({ source: 'salvage', classifiedBy: 'rules' });
    expect(json.refused).toEqual([run.err.trim()]);
  });

  it('a 500 is no refusal: it is retried, and a later answer from the model exits 0 without a warning', async () => {
    let calls = 0;
    const { baseURL } = await serveModel((body, res) => {
      calls += 1;
      if (calls === 1) failure(res, 500, 'oops');
      else answerLikeAModel(body, res);
    });
    const run = await ask(baseURL, 'books by George Orwell');
    expect(run.code).toBe(0);
    expect(run.err).toBe('');
  });
});

describe('drafts that echo the prompt are rejected by validation', () => {
  it('a draft copying the prompt goes back to compose with a repair hint; the next draft is the answer', async () => {
    const composed: string[] = [];
    const { baseURL } = await serveModel((body, res) => {
      if (isClassify(body)) return answerLikeAModel(body, res);
      composed.push(body.messages.at(-1)?.content ?? '');
      // The first draft is the prompt itself; the retry answers.
      if (composed.length === 1) completion(res, body.messages.at(-1)?.content ?? '');
      else answerLikeAModel(body, res);
    });
    const run = await ask(baseURL, 'books by George Orwell', '--trace', '--json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.out.slice(run.out.indexOf('{')));
    expect(result.source).toBe('model');
    expect(result.answer).toMatch(/^You will like "[^"]+" by George Orwell/);
    expect(composed).toHaveLength(2);
    expect(composed[1]).toMatch(/Your previous draft was rejected: the draft copies the prompt/);
  });

  it('a model that only repeats the shortlist or the question ends in the salvage answer', async () => {
    const { baseURL } = await serveModel((body, res) => {
      if (isClassify(body)) return answerLikeAModel(body, res);
      const user = body.messages.at(-1)?.content ?? '';
      const line = /^1\. (.+)$/m.exec(user)?.[1] ?? '';
      const question = /^Question: (.+)$/m.exec(user)?.[1] ?? '';
      // A numberless shortlist line, and the question with a title in quotes to pass the other checks.
      completion(res, user.includes('rejected') ? `${question}? "Animal Farm"` : line);
    });
    const run = await ask(baseURL, 'tell me which books by George Orwell are in the catalog', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ source: 'salvage' });
  });
});

describe('the requests', () => {
  it('carry max_tokens, and a JSON response format for the classification only', async () => {
    const bodies: RequestBody[] = [];
    const { baseURL } = await serveModel((body, res) => {
      bodies.push(body);
      answerLikeAModel(body, res);
    });
    expect((await ask(baseURL, 'books by George Orwell')).code).toBe(0);
    expect(bodies.map((b) => [isClassify(b), b.max_tokens, b.response_format])).toEqual([
      [true, 600, { type: 'json_object' }],
      [false, 600, undefined],
    ]);
    bodies.length = 0;
    expect((await ask(baseURL, 'books by George Orwell', '--max-tokens', '200')).code).toBe(0);
    expect(bodies.map((b) => b.max_tokens)).toEqual([200, 200]);
  });
});

describe('the question and the flags', () => {
  it('a message over 50,000 characters is one line and exit 2; 50,000 is answered', async () => {
    const long = `books by George Orwell ${'please '.repeat(8000)}`.slice(0, 50_001);
    const run = await runMain(['ask', long]);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toBe(
      'archivist: the question is 50001 characters long; the limit is 50000: ask it in fewer words (E_USAGE)\n',
    );
    expect((await runMain(['ask', long.slice(0, 50_000)])).code).toBe(0);
  });

  it('a bad --max-tokens is one line and exit 2', async () => {
    const run = await runMain(['ask', '--max-tokens', '0', 'hi']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^archivist: --max-tokens must be a whole number from 1 to 100000, not '0'/);
  });
});
