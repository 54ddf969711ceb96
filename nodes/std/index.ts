/**
 * Generic nodes every DAG may use, registered under `urn:switchyard:node:std:*`.
 */
import { defineNode } from '../../src/runtime/node.ts';

/** Takes `ok` and changes nothing: a placeholder while a DAG is drafted, or a join point. */
export const pass = defineNode({
  id: 'urn:switchyard:node:std:pass',
  outputs: ['ok'],
  description: 'Leaves the item unchanged and takes `ok`.',
  run: () => 'ok',
});

/** A scatter body that answers each child with its own element: `data.result = data.item`, output `ok`. */
export const echo = defineNode({
  id: 'urn:switchyard:node:std:echo',
  outputs: ['ok'],
  description: 'Copies the scattered element (`item`) to `result` and takes `ok`.',
  run: (item) => {
    item.data.result = item.data.item ?? null;
    return 'ok';
  },
});

/** Takes `empty` when `data.result` is missing, null, '' or an empty array, else `present`: result-based retry. */
export const checkResult = defineNode({
  id: 'urn:switchyard:node:std:check-result',
  outputs: ['present', 'empty'],
  description: 'Routes on whether `result` holds something: `present` or `empty`.',
  run: (item) => {
    const value = item.data.result;
    const empty =
      value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    return empty ? { output: 'empty', reason: 'the result is empty' } : 'present';
  },
});

/** Every generic node, for `createDispatcher({ nodes: [...stdNodes, ...mine] })`. */
export const nodes = [pass, echo, checkResult];
