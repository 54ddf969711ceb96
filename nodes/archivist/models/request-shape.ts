import { CLASSIFY_TASK } from '../prompts.ts';
import type { ChatMessage } from '../types.ts';

/**
 * The default cap on the tokens of one model answer. A classification is a JSON object of about 60 tokens
 * and a composed answer two to four sentences, or an author's whole list: 600 leaves room for that list
 * while bounding what a runaway answer costs.
 */
export const DEFAULT_MAX_TOKENS = 600;

/**
 * True when the messages ask for a JSON answer: the classification prompt does (its parser reads one JSON
 * object), the compose prompt asks for plain prose, which the validator rejects when it is JSON.
 */
export function wantsJson(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'system' && m.content.startsWith(CLASSIFY_TASK));
}
