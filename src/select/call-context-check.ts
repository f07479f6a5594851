import { errorMessage } from '../util/error-message.js';
import { quoteValue } from '../util/quote-value.js';
import type { ContextCheck } from './types.js';

/** What a context check said for one turn: whether its group applies, or why it could not say. */
export type ContextCheckOutcome = { applies: boolean } | { problem: string };

/**
 * Calls a group's `context_check`. Only `true` and `false` are answers: a throw, a Promise (an
 * async check: selection is synchronous, so it cannot wait) or any other value is a problem, and
 * a rejected Promise is caught so it never becomes an unhandled rejection.
 */
export function callContextCheck(
  check: ContextCheck,
  context: Readonly<Record<string, unknown>>,
  message: string,
): ContextCheckOutcome {
  let result: unknown;
  try {
    result = check(context, message);
  } catch (error) {
    return { problem: `threw (${errorMessage(error)})` };
  }
  if (typeof result === 'boolean') return { applies: result };
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    (result as PromiseLike<unknown>).then(undefined, () => {});
    return {
      problem:
        'returned a Promise: context checks must answer true or false synchronously, as select does not wait; compute the answer before the turn and pass it in the context',
    };
  }
  return { problem: `returned ${quoteValue(result)}, not true or false` };
}

/** The dropped tools' reason for a check that gave no answer (the warning has the detail). */
export function contextCheckFailure(problem: string): string {
  return `${problem.startsWith('threw') ? 'threw' : 'gave no true/false answer'} (see the warnings)`;
}
