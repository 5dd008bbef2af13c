import { type CallFacts, createToolContext, type RunFacts } from '../context/create-context.js';
import type { ToolExecutionContext } from '../context/types.js';
import { type ErrorInfo, toErrorInfo } from '../errors.js';
import type { AnyTool } from '../tools/define-tool.js';
import { Attempt, type Outcome } from './attempt.js';

/**
 * One call across its attempts. Whatever cancels the call (the run, the caller, the parent)
 * aborts the attempt in flight and stops any retry.
 */
export class Invocation {
  aborted: ErrorInfo | undefined;
  private attempt: Attempt | undefined;
  private wake: (() => void) | undefined;

  abort(error: ErrorInfo): void {
    if (this.aborted) return;
    this.aborted = error;
    this.attempt?.abort(error);
    this.wake?.();
  }

  /**
   * Runs the tool until it succeeds, fails for good or is cancelled, retrying retryable failures
   * as its retry policy says.
   */
  async execute(
    tool: AnyTool,
    args: unknown,
    run: RunFacts,
    call: Omit<CallFacts, 'dispatch'>,
    dispatchFor: ((attempt: Attempt) => CallFacts['dispatch']) | undefined,
  ): Promise<Outcome> {
    const attempts = Math.max(1, tool.retry?.attempts ?? 1);
    let outcome: Outcome = { ok: false, error: this.aborted ?? notRun };
    for (let n = 1; n <= attempts && !this.aborted; n++) {
      const attempt = new Attempt(tool.timeoutMs, tool.name);
      this.attempt = attempt;
      const ctx = createToolContext(run, { ...call, dispatch: dispatchFor?.(attempt) }, attempt);
      outcome = await runAttempt(tool, args, ctx, attempt);
      this.attempt = undefined;
      if (outcome.ok || !outcome.error.retryable || this.aborted || n === attempts) break;
      const delayMs = (tool.retry?.backoffMs ?? 0) * 2 ** (n - 1);
      run.log.emit(
        'tool.retry',
        { tool: tool.name, attempt: n + 1, delayMs, error: outcome.error },
        call.toolCallId,
        call.parentId,
      );
      await this.pause(delayMs);
    }
    if (this.aborted && outcome.ok) outcome = { ok: false, error: this.aborted };
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

const notRun: ErrorInfo = {
  kind: 'aborted',
  message: 'The call was cancelled before it ran.',
  retryable: false,
};

function runAttempt(
  tool: AnyTool,
  args: unknown,
  ctx: ToolExecutionContext,
  attempt: Attempt,
): Promise<Outcome> {
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
  return attempt.outcome;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
