import type { ToolDispatch, ToolExecutionContext } from '../context/types.js';
import { type ErrorInfo, toErrorInfo } from '../errors.js';
import type { AnyTool } from '../tools/define-tool.js';
import { Attempt, type Outcome } from './attempt.js';
import type { CallFacts, RunFacts } from './run-facts.js';
import { createToolContext } from './tool-context.js';

/** Makes the `ctx.tools` of one attempt, at a door with dispatch. */
export type DispatchFactory = (attempt: Attempt, call: CallFacts) => ToolDispatch;

/**
 * One call across its attempts. Whatever cancels the call (the run, the caller, the parent)
 * aborts the attempt in flight and stops any retry.
 */
export class Invocation {
  /** The call's id, once known: what `run.cancel` finds it by. */
  callId: string | undefined;
  /** For a call an approval resumed: that approval's id, which `run.cancel` also takes. */
  approvalId: string | undefined;
  aborted: ErrorInfo | undefined;
  /** When the call's end was filed (`tool.finished` or `tool.failed`), ms since the epoch. */
  endedAt: number | undefined;
  /** The call's result, for whoever waits for every call of the run; unset for a call that ended at once. */
  done: Promise<unknown> | undefined;
  /** Neighbours in the run's list of calls in flight. */
  older: Invocation | undefined;
  newer: Invocation | undefined;
  private attempt: Attempt | undefined;
  private wake: (() => void) | undefined;
  /** Stops listening to the caller's signal. */
  unlisten: (() => void) | undefined;

  /** Aborts the call with `error` when the caller's signal fires, until `unlisten`. */
  listen(signal: AbortSignal, error: ErrorInfo): void {
    const onAbort = () => this.abort(error);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    this.unlisten = () => signal.removeEventListener('abort', onAbort);
  }

  abort(error: ErrorInfo): void {
    if (this.aborted) return;
    this.aborted = error;
    this.attempt?.abort(error);
    this.wake?.();
  }

  /**
   * What the call does before its tool runs (a sign-in its `needs` asks for) belongs to: an
   * attempt without a timeout, which whatever cancels the call ends.
   */
  beforeAttempts(toolName: string): Attempt {
    const attempt = new Attempt(undefined, toolName);
    this.attempt = attempt;
    if (this.aborted) attempt.abort(this.aborted);
    return attempt;
  }

  /** Runs one attempt; the outcome comes at once when the tool finished at once. */
  attemptOnce(
    tool: AnyTool,
    args: unknown,
    run: RunFacts,
    call: CallFacts,
    dispatch: DispatchFactory | undefined,
  ): Outcome | Promise<Outcome> {
    if (this.aborted) return { ok: false, error: this.aborted };
    const ctx = createToolContext(run, call, tool.timeoutMs, dispatch);
    this.attempt = ctx.attempt;
    return runAttempt(tool, args, ctx, ctx.attempt);
  }

  /**
   * Runs the tool until it succeeds, fails for good or is cancelled, retrying retryable failures
   * as its retry policy says.
   */
  async withRetries(
    tool: AnyTool,
    args: unknown,
    run: RunFacts,
    call: CallFacts,
    dispatch: DispatchFactory | undefined,
  ): Promise<Outcome> {
    const attempts = Math.max(1, tool.retry?.attempts ?? 1);
    let outcome = await this.attemptOnce(tool, args, run, call, dispatch);
    for (let n = 1; n < attempts && !outcome.ok && outcome.error.retryable && !this.aborted; n++) {
      const delayMs = (tool.retry?.backoffMs ?? 0) * 2 ** (n - 1);
      const data = { tool: tool.name, attempt: n + 1, delayMs, error: outcome.error };
      run.log.emit('tool.retry', data, call.toolCallId, call.parentId);
      await this.pause(delayMs);
      outcome = await this.attemptOnce(tool, args, run, call, dispatch);
    }
    return outcome;
  }

  private pause(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/**
 * An invocation that never runs, kept for the life of the module. V8 keeps the hidden classes an
 * object's fields give it only while such an object lives, and a full garbage collection that
 * finds no call in flight (for an idle runtime, any moment) drops them, and with them the
 * optimized code of the whole call path: calls then run unoptimized until warm again (on Node 20
 * the next 50,000 trivial calls took 2.5× as long). This one keeps them; tool-context.ts keeps
 * the context's and the attempt's.
 */
export const idleInvocation = new Invocation();

function runAttempt(
  tool: AnyTool,
  args: unknown,
  ctx: ToolExecutionContext,
  attempt: Attempt,
): Outcome | Promise<Outcome> {
  try {
    const returned = tool.execute(args, ctx);
    if (isThenable(returned)) {
      returned.then(
        (value) => attempt.finish({ ok: true, value }),
        (thrown) => attempt.finish({ ok: false, error: toErrorInfo(thrown) }),
      );
    } else attempt.finish({ ok: true, value: returned });
  } catch (thrown) {
    attempt.finish({ ok: false, error: toErrorInfo(thrown) });
  }
  return attempt.outcome();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
