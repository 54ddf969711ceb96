import type { Candidate, ChatMessage, Classification, Intent, Memory } from './types.ts';
import { INTENTS } from './types.ts';

/** The first line of every system prompt names the task, so one model can serve several nodes. */
export const CLASSIFY_TASK = 'Task: classify';
export const COMPOSE_TASK = 'Task: compose';

/** Messages asking a model to classify a question and extract what it names. */
export function classifyMessages(question: string, memory: Memory | undefined): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        CLASSIFY_TASK,
        'You classify questions put to a librarian who answers only about books in a local catalog.',
        `Intents: ${INTENTS.join(', ')}. "find" = find books by title or author; "recommend" = suggest similar books;`,
        '"describe" = describe one book; "off-topic" = not about books.',
        'Answer with one JSON object and nothing else:',
        '{"intent": "...", "title": "... or null", "author": "... or null", "subjects": [], "keywords": "...", "shorter": false, "longer": false}',
        'Use the previous turn for "the same author", "it", "something shorter".',
      ].join('\n'),
    },
    {
      role: 'user',
      content: `Previous turn: ${JSON.stringify(memory ?? {})}\nQuestion: ${question}`,
    },
  ];
}

/** One shortlist line as the compose prompt shows it. */
export function shortlistLine(book: Candidate, index: number): string {
  return `${index + 1}. "${book.title}" by ${book.authors.join(' and ')} (${book.year}, ${book.pages} pages) — ${book.subjects.join(', ')} — ${book.description}`;
}

/** Messages asking a model to write the answer from the shortlist, with the validator's hint on a retry. */
export function composeMessages(
  question: string,
  intent: Intent,
  shortlist: readonly Candidate[],
  repair: string | undefined,
): ChatMessage[] {
  const lines = [`Intent: ${intent}`, `Question: ${question}`, 'Shortlist:', ...shortlist.map(shortlistLine)];
  if (repair) lines.push(`Your previous draft was rejected: ${repair}. Write a new one that fixes this.`);
  return [
    {
      role: 'system',
      content: [
        COMPOSE_TASK,
        'You are the Archivist, a librarian. Answer the question in two to four sentences of plain prose.',
        'Name only books from the shortlist, each title in double quotes, and never invent a book.',
        'Do not answer in JSON, lists of fields or code.',
      ].join('\n'),
    },
    { role: 'user', content: lines.join('\n') },
  ];
}

/** Reads a model's classification: the first JSON object in the text. Returns a reason when unusable. */
export function parseClassification(text: string): Classification | string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start)
    return text.trim() === '' ? 'the model answered nothing' : 'the model answered no JSON object';
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return 'the model answered malformed JSON';
  }
  if (typeof value !== 'object' || value === null) return 'the model answered no JSON object';
  const v = value as Record<string, unknown>;
  const intent = typeof v.intent === 'string' ? v.intent.toLowerCase().replace(/[\s_]+/g, '-') : undefined;
  if (!INTENTS.includes(intent as Intent))
    return `the model answered an unknown intent '${String(v.intent)}'`;
  const str = (x: unknown) =>
    typeof x === 'string' && x.trim() !== '' && x !== 'null' ? x.trim() : undefined;
  const title = str(v.title);
  const author = str(v.author);
  return {
    intent: intent as Intent,
    ...(title === undefined ? {} : { title }),
    ...(author === undefined ? {} : { author }),
    subjects: Array.isArray(v.subjects) ? v.subjects.filter((s): s is string => typeof s === 'string') : [],
    keywords: str(v.keywords) ?? '',
    shorter: v.shorter === true,
    longer: v.longer === true,
  };
}
