import { describe, expect, it } from 'vitest';
import { loadDagText } from '../../src/document/load.ts';

const doc = (answers: unknown) =>
  JSON.stringify({
    '@context': 'https://w3id.org/switchyard/context/v1',
    '@id': 'urn:switchyard:test:await-schema',
    '@type': 'Dag',
    name: 'x',
    version: '1',
    entrypoints: ['a'],
    placements: [
      { key: 'a', kind: 'await', answers, routes: [{ output: 'deadline', to: 't' }] },
      { key: 't', kind: 'terminal', outcome: 'completed' },
    ],
  });

describe('the schema of an await placement', () => {
  it("refuses an answer named 'deadline', the engine's own output, saying why", async () => {
    const { problems } = await loadDagText(doc(['ok', 'deadline']));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'E_SCHEMA', pointer: '/placements/0/answers/1' });
    expect(problems[0]?.message).toContain("'deadline' is the output the engine takes");
  });

  it('refuses an await without answers', async () => {
    const { problems } = await loadDagText(doc([]));
    expect(problems[0]).toMatchObject({ code: 'E_SCHEMA' });
  });
});
