import { type ErrorInfo, ToolctxError } from '../errors.js';

/** How one attempt of a call ended. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };

/**
 * One execution of a tool: what its `ctx.signal` belongs to. The signal is made only when read;
 * a timeout is one timer; a promise is made only for a tool that does not finish at once.
 * Whatever ends the attempt first (the tool, an abort, the timeout) settles it; anything after is
 * discarded. The context the tool receives (tool-context.ts) holds its attempt.
 */
export class Attempt {
  settled = false;
  /** Asks made by this attempt without a key of their own, and how many are open (run-asks.ts). */
  askCount = 0;
  asking = 0;
  /** Starts the timeout again once its last open ask is answered. */
  resumeTimeout: (() => void) | undefined;
  /** How it ended, once it has. */
  result: Outcome | undefined;
  /** Calls started through this attempt's `ctx.tools`; they end when it ends. */
  children: Set<{ abort(error: ErrorInfo): void }> | undefined;
  private controller: AbortController | undefined;
  private abortedWith: ErrorInfo | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timeout fires, ms since the epoch; set while it runs. */
  private deadline: number | undefined;
  private resolve: ((outcome: Outcome) => void) | undefined;

  constructor(
    private readonly timeoutMs: number | undefined,
    private readonly timedTool: string,
    /** What takes the call's credentials out of the error it fails with (its tool context). */
    private readonly reports?: { redactOutcome(outcome: Outcome): Outcome },
  ) {
    if (timeoutMs !== undefined) this.startTimer(timeoutMs);
  }

  private startTimer(ms: number): void {
    this.deadline = Date.now() + ms;
    this.timer = setTimeout(
      () =>
        this.abort({
          kind: 'timeout',
          message: `"${this.timedTool}" did not finish within its ${this.timeoutMs} ms timeout.`,
          retryable: true,
        }),
      ms,
    );
  }

  /**
   * Stops the timeout while the call waits for a person (an ask); the returned function starts it
   * again with the time that was left.
   */
  holdTimeout(): () => void {
    if (this.deadline === undefined) return () => {};
    const left = Math.max(0, this.deadline - Date.now());
    clearTimeout(this.timer);
    this.deadline = undefined;
    return () => {
      if (!this.settled) this.startTimer(left);
    };
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(reasonFor(this.abortedWith));
    }
    return this.controller.signal;
  }

  /** The outcome: at once if settled, else a promise of it. */
  outcome(): Outcome | Promise<Outcome> {
    return (
      this.result ??
      new Promise((resolve) => {
        this.resolve = resolve;
      })
    );
  }

  /** Ends the attempt as cancelled or timed out: fires the signal and settles at once. */
  abort(error: ErrorInfo): void {
    if (this.settled) return;
    this.abortedWith = error;
    this.controller?.abort(reasonFor(error));
    this.finish({ ok: false, error });
  }

  finish(outcome: Outcome): void {
    if (this.settled) return;
    if (this.reports && !outcome.ok) outcome = this.reports.redactOutcome(outcome);
    this.settled = true;
    this.result = outcome;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.resolve?.(outcome);
    if (this.children) {
      const ended: ErrorInfo = { kind: 'aborted', message: 'The parent call ended.', retryable: false };
      for (const child of this.children) child.abort(ended);
    }
  }
}

function reasonFor(error: ErrorInfo): ToolctxError {
  return new ToolctxError(error.kind, error.message, { retryable: error.retryable });
}
