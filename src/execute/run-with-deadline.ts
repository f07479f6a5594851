/**
 * How a deadline-bound run ended. A `timeout` is `late` when the task did settle, but after its
 * deadline and before the timer could fire (it blocked the event loop); its result is dropped.
 */
export type DeadlineOutcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout'; late: boolean }
  | { kind: 'aborted'; reason: unknown };

/**
 * The longest delay a Node timer supports (2^31 - 1 ms, about 24.8 days); a longer one would
 * fire after 1 ms. Time limits above it count as no limit.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Whether `timeoutMs` is a time limit a timer can keep (finite and at most `MAX_TIMER_DELAY_MS`). */
export function isTimerDelay(timeoutMs: number): boolean {
  return Number.isFinite(timeoutMs) && timeoutMs <= MAX_TIMER_DELAY_MS;
}

/**
 * Runs `task` with an AbortSignal that fires after `timeoutMs` or when `signal` aborts, and
 * settles as soon as either happens: a task that ignores its signal is abandoned, not awaited
 * (its late result or rejection is swallowed). A task that keeps the event loop busy past the
 * deadline (a synchronous loop) leaves the timer no chance to fire; its result, measured
 * against the clock, still counts as a timeout. `Infinity`, or anything over
 * `MAX_TIMER_DELAY_MS`, means no time limit.
 */
export function runWithDeadline<T>(
  task: (signal: AbortSignal) => T | Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DeadlineOutcome<T>> {
  return new Promise((resolve) => {
    const controller = new AbortController();
    const limited = isTimerDelay(timeoutMs);
    const started = performance.now();
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
    const timeOut = (late: boolean) => {
      const reason = new Error(`timed out after ${timeoutMs} ms`);
      reason.name = 'TimeoutError';
      controller.abort(reason);
      finish({ kind: 'timeout', late });
    };
    // a result that comes after the deadline, before the timer could fire, is a timeout too
    const settle = (outcome: DeadlineOutcome<T>) => {
      if (settled) return;
      if (limited && performance.now() - started > timeoutMs) timeOut(true);
      else finish(outcome);
    };
    if (limited) timer = setTimeout(() => timeOut(false), timeoutMs);
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(task(controller.signal));
    } catch (error) {
      settle({ kind: 'error', error });
      return;
    }
    pending.then(
      (value) => settle({ kind: 'ok', value }),
      (error: unknown) => settle({ kind: 'error', error }),
    );
  });
}
