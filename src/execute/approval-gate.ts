import type { RegisteredTool } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';
import type { CallGate } from './execute-tool.js';
import type { ExecuteOptions, ToolCallError } from './types.js';

/**
 * Whether the approval hook is asked about `tool` by default: tools that change data
 * (`category: "mutation"`) and tools that say they may destroy it (`destructiveHint: true`).
 */
export function needsApprovalByDefault(tool: RegisteredTool): boolean {
  return tool.category === 'mutation' || tool.annotations?.destructiveHint === true;
}

/**
 * Gates that ask `options.approve` about the tools `options.needsApproval` names (one gate per
 * call, `id` being the provider's call id), or undefined when there is no hook. The gates of
 * one batch share a queue: the hook is asked one call at a time, in the order the calls reach
 * their gates (the order the model made them), so a person answering prompts sees them one by
 * one; each call runs as soon as it is approved. The hook gets a copy of the input. Only `true`
 * approves; a throw refuses too (fail closed). When `options.signal` aborts while a call waits,
 * the call ends `ABORTED`.
 */
export function createApprovalGates(
  options: ExecuteOptions,
): ((id: string | undefined) => CallGate) | undefined {
  const { approve, signal } = options;
  if (approve === undefined) return undefined;
  const gated = resolveNeedsApproval(options.needsApproval);
  let queue: Promise<unknown> = Promise.resolve();
  return (id) => (tool, input) => {
    let asks: boolean;
    try {
      asks = gated(tool);
    } catch (error) {
      return Promise.resolve(refusal(tool, { kind: 'threw', error }));
    }
    if (!asks) return Promise.resolve(undefined);
    const call = { ...(id === undefined ? {} : { id }), name: tool.name, input: copyOf(input) };
    const answer = queue.then(() => ask(() => approve(call, tool), signal));
    queue = answer;
    return raceAbort(answer, signal).then((outcome) => refusal(tool, outcome));
  };
}

type Outcome =
  | { kind: 'answer'; value: unknown }
  | { kind: 'threw'; error: unknown }
  | { kind: 'aborted'; reason: unknown };

function resolveNeedsApproval(
  option: ExecuteOptions['needsApproval'],
): (tool: RegisteredTool) => boolean {
  if (option === undefined) return needsApprovalByDefault;
  if (typeof option === 'function') return option;
  return () => option;
}

/** A copy the hook may change: through JSON (the input's own form), else a structured clone. */
function copyOf(input: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
  } catch {
    return structuredClone(input);
  }
}

function ask(question: () => unknown, signal: AbortSignal | undefined): Promise<Outcome> {
  // a call whose turn comes after the signal aborted is never put to the hook
  if (signal?.aborted === true) return Promise.resolve({ kind: 'aborted', reason: signal.reason });
  try {
    return Promise.resolve(question()).then(
      (value): Outcome => ({ kind: 'answer', value }),
      (error: unknown): Outcome => ({ kind: 'threw', error }),
    );
  } catch (error) {
    return Promise.resolve({ kind: 'threw', error });
  }
}

/** `answer`, or `aborted` as soon as `signal` aborts (a call queued or waiting ends at once). */
function raceAbort(answer: Promise<Outcome>, signal: AbortSignal | undefined): Promise<Outcome> {
  if (signal === undefined) return answer;
  if (signal.aborted) return Promise.resolve({ kind: 'aborted', reason: signal.reason });
  return new Promise((resolve) => {
    const onAbort = () => resolve({ kind: 'aborted', reason: signal.reason });
    signal.addEventListener('abort', onAbort, { once: true });
    void answer.then((outcome) => {
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    });
  });
}

function refusal(tool: RegisteredTool, outcome: Outcome): ToolCallError | undefined {
  switch (outcome.kind) {
    case 'answer':
      if (outcome.value === true) return undefined;
      return {
        code: 'NOT_APPROVED',
        message: `The call to tool "${tool.name}" was not approved, so it did not run. Do not call it again unless the user asks you to; tell the user what you wanted to do instead.`,
        details: { tool: tool.name },
      };
    case 'threw':
      return {
        code: 'NOT_APPROVED',
        message: `The call to tool "${tool.name}" could not be approved (the approval check failed), so it did not run.`,
        details: { tool: tool.name, reason: errorMessage(outcome.error) },
      };
    case 'aborted':
      return {
        code: 'ABORTED',
        message: `The call to tool "${tool.name}" was cancelled while it waited for approval.`,
        details: {
          reason:
            outcome.reason instanceof Error
              ? outcome.reason.message
              : String(outcome.reason ?? 'aborted'),
        },
      };
  }
}
