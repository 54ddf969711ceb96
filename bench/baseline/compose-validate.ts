/**
 * The compose → validate loop of workload W1 written by hand: plain functions and a loop with a retry counter,
 * no engine. What a dispatcher run of the same loop is measured against.
 */

/** The data one loop works on. */
export interface Draft {
  topic: string;
  draft?: string;
  salvaged?: boolean;
}

function compose(data: Draft, attempt: number): 'drafted' {
  data.draft = `${data.topic} #${attempt}`;
  return 'drafted';
}

function validate(data: Draft): 'valid' | 'invalid' {
  return data.draft === undefined ? 'valid' : 'invalid';
}

function salvage(data: Draft): 'salvaged' {
  data.salvaged = true;
  return 'salvaged';
}

/**
 * Runs compose and validate until validate accepts or `budget` retries are spent, then salvages; returns how
 * many node executions that took (compose and validate once per attempt, salvage once).
 * @example
 * await composeValidateLoop({ topic: 'whales' }, 3); // 9
 */
export async function composeValidateLoop(data: Draft, budget: number): Promise<number> {
  let executions = 0;
  for (let spent = 0; ; spent++) {
    compose(data, spent + 1);
    executions++;
    const verdict = validate(data);
    executions++;
    if (verdict === 'valid') return executions;
    if (spent >= budget) break;
  }
  salvage(data);
  return executions + 1;
}
