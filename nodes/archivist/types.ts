import type { Request } from './request.ts';

/**
 * The shapes the Archivist's nodes share: books, the services they get, the model interface and the
 * per-item data written by each step.
 */

/** One book of the catalog. */
export interface Book {
  readonly id: string;
  readonly title: string;
  /** The book's title in its original language and script, and its transliterations ("Война и мир"). */
  readonly otherTitles?: readonly string[];
  readonly authors: readonly string[];
  readonly year: number;
  readonly pages: number;
  readonly subjects: readonly string[];
  readonly description: string;
  /** The series the book belongs to, when it is known ("Dune", "Discworld"). */
  readonly series?: string;
  /** The book's number in its series, when it is known. */
  readonly seriesNumber?: number;
  /** The language the book was written in, when it is known ("English", "Russian"). */
  readonly language?: string;
  /** The author's country, when it is known ("Nigeria", "United Kingdom"). */
  readonly country?: string;
  /** Who the book is for, when it is known: "young children", "children" or "young adult". */
  readonly audience?: string;
}

/** One message of a chat-completions conversation. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Options of one model call. */
export interface CompleteOptions {
  /** Aborts the call: the node's deadline fired or the run was aborted. */
  readonly signal: AbortSignal;
}

/** A language model behind the chat-completions shape: messages in, text out. */
export interface ChatModel {
  /** A short name for traces and `--json` (e.g. `offline`, `openai:gpt-4o-mini`). */
  readonly name: string;
  /** True for models that answer at once (no progress spinner needed). */
  readonly local: boolean;
  complete(messages: readonly ChatMessage[], options: CompleteOptions): Promise<string>;
}

/** What a question asks for. */
export type Intent = 'find' | 'recommend' | 'describe' | 'off-topic';

/** Every intent, in a stable order. */
export const INTENTS: readonly Intent[] = ['find', 'recommend', 'describe', 'off-topic'];

/** The intent of a question and what was extracted from it. */
export interface Classification {
  readonly intent: Intent;
  /** A title named in the question (or the previous turn's book, for "the same book"). */
  readonly title?: string;
  readonly author?: string;
  readonly subjects: readonly string[];
  /** Free words left for full-text search. */
  readonly keywords: string;
  /** Asked for something shorter / longer than the previous turn's book. */
  readonly shorter: boolean;
  readonly longer: boolean;
}

/** What a chat session remembers of the previous turn, passed in the next item's data. */
export interface Memory {
  readonly intent?: Intent;
  readonly author?: string;
  /** The book the previous answer was mainly about. */
  readonly bookId?: string;
  /** Ids of the books the previous answer presented, in order. */
  readonly shortlist?: readonly string[];
  /** The book the reader started from: the named book, or the one others were found like. */
  readonly anchor?: string;
  /** Ids of every book presented so far in the conversation, so "another one" does not repeat them. */
  readonly shown?: readonly string[];
  /** The question whose answer presented `shortlist`, for "another one". */
  readonly question?: string;
  /** The constraints in force, which a follow-up that only refines them keeps ("something shorter"). */
  readonly request?: Request;
}

/** One search strategy, as planned for the scatter: each becomes a child item. */
export interface StrategyPlan {
  readonly strategy: 'title' | 'author' | 'subject' | 'fulltext';
  readonly query: string;
}

/** A candidate found by one strategy. */
export interface Hit {
  readonly id: string;
  readonly score: number;
  readonly strategy: StrategyPlan['strategy'];
}

/** A shortlisted book as it travels in item data (plain JSON). */
export interface Candidate extends Book {
  readonly score: number;
  readonly strategies: readonly string[];
}

/** Where an answer came from. */
export type AnswerSource = 'model' | 'salvage' | 'refusal' | 'no-match' | 'ask-back';
