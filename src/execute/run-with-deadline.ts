/** How a deadline-bound run ended. */
export type DeadlineOutcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: unknown };

/**
 * Runs `task` with an AbortSignal that fires after `timeoutMs` or when `signal` aborts, and
 * settles as soon as either happens: a task that ignores its signal is abandoned, not awaited
 * (its late result or rejection is swallowed). `Infinity` means no time limit.
 */
export function runWithDeadline<T>(
  task: (signal: AbortSignal) => T | Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DeadlineOutcome<T>> {
  return new Promise((resolve) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (outcome: DeadlineOutcome<T>) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => {
      controller.abort(signal?.reason);
      finish({ kind: 'aborted', reason: signal?.reason });
    };
    if (signal?.aborted === true) {
      finish({ kind: 'aborted', reason: signal.reason });
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        const reason = new Error(`timed out after ${timeoutMs} ms`);
        reason.name = 'TimeoutError';
        controller.abort(reason);
        finish({ kind: 'timeout' });
      }, timeoutMs);
    }
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(task(controller.signal));
    } catch (error) {
      finish({ kind: 'error', error });
      return;
    }
    pending.then(
      (value) => finish({ kind: 'ok', value }),
      (error: unknown) => finish({ kind: 'error', error }),
    );
  });
}
