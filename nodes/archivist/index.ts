import type { NodeDefinition } from '../../src/runtime/node.ts';
import { askBack } from './ask-back.ts';
import { classify } from './classify.ts';
import { classifyRules } from './classify-rules.ts';
import { compose } from './compose.ts';
import { noMatch } from './no-match.ts';
import { planSearchNode } from './plan-search.ts';
import { rank } from './rank.ts';
import { readQuestion } from './read-question.ts';
import { refuse } from './refuse.ts';
import { respond } from './respond.ts';
import { salvage } from './salvage.ts';
import { searchStrategy } from './search-strategy.ts';
import type { ArchivistServices } from './services.ts';
import { validate } from './validate.ts';

/** Every node the Archivist's DAGs place, for `createDispatcher({ nodes })`. */
export const archivistNodes: readonly NodeDefinition<string, ArchivistServices>[] = [
  readQuestion,
  classify,
  classifyRules,
  planSearchNode,
  searchStrategy,
  rank,
  compose,
  validate,
  salvage,
  respond,
  refuse,
  noMatch,
  askBack,
];
