import yoctoSpinner from 'yocto-spinner';
import type { ChatModel } from '../../nodes/archivist/types.ts';

/**
 * Shows a spinner on `stream` while the model is thinking. Only for a terminal and a model that takes
 * time: piped output and the offline model get the model back unchanged.
 */
export function withProgress(model: ChatModel, stream: NodeJS.WriteStream, isTTY: boolean): ChatModel {
  if (!isTTY || model.local) return model;
  let active = 0;
  const spinner = yoctoSpinner({ text: `thinking (${model.name})…`, stream });
  return {
    name: model.name,
    local: model.local,
    async complete(messages, options) {
      if (active++ === 0) spinner.start();
      try {
        return await model.complete(messages, options);
      } finally {
        if (--active === 0) spinner.stop();
      }
    },
  };
}
