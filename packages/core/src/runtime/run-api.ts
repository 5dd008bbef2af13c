import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { OpenApproval, PendingApprovalStore } from '../approval/pending-approvals.js';
import type { Answered, AskAnswer, OpenAsk } from '../ask/ask.js';
import type { CallRequest, Identity, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { EventSink, RunEvents } from '../events/event-log.js';
import type { Phase } from '../policy/phase.js';
import type { ToolSchema } from '../tools/define-tool.js';
import type { Workspace } from '../workspace/workspace.js';
import type { CallHandle, CallStore } from './call-book.js';
import type { DecisionRefusal } from './run-approvals.js';
import type { RunStats } from './run-facts.js';

/** Options of `runtime.startRun`. */
export interface StartRunOptions {
  /** Who the run acts for, as the host established it. Scopes artifacts, credentials and taint. */
  identity?: Identity;
  /** The caller's session; caller data, never trusted alone. */
  sessionId?: string;
  /** Cancels the whole run. */
  signal?: AbortSignal;
  /** Default `act`. */
  phase?: Phase;
  /** Read-only host data every call sees as `ctx.state`. */
  state?: Record<string, unknown>;
  /** For doors that name runs themselves (a Durable Object per run): the id to use. */
  runId?: string;
  /** Spending cap of the run, in US dollars, counted by the runtime's ledger. */
  maxUsd?: number;
  /**
   * Whether a person can answer this run's asks (`ctx.ask`; default `true`). A run driven by a loop
   * with no person in it — `generateText` in a script, a batch job — passes `false`: a tool's ask
   * then fails at once as `unsupported`, which the tool can catch, instead of waiting out its window.
   */
  canAsk?: boolean;
  /** A workspace for this run instead of the runtime's (see `withWorkspace`). */
  workspace?: Workspace;
  /** Receives every event of the run from `run.started` on (a subscription made before it exists). */
  onEvent?: EventSink;
  /**
   * For a host that starts a run again under the same `runId` (its object restarted): the `seq`
   * of the last event it recorded of that run. The run then makes no second `run.started`, and
   * its events go on from the next `seq`, so readers resuming the record see no gap or repeat.
   */
  continuesAfterSeq?: number;
  /**
   * Where the run keeps the calls that wait for approval; in memory unless set. A host whose runs
   * outlive a restart passes a durable store here and, starting the run again under the same
   * `runId` and identity, the same store: the approvals in it can then be resumed.
   */
  pendingApprovals?: PendingApprovalStore;
  /**
   * Where the run keeps its calls' records (their handles: status and, once settled, result); in
   * memory unless set (every open call and the newest 1,000 settled ones). A host whose runs
   * outlive a restart passes a durable store, and the same store when it starts the run again
   * with `continuesAfterSeq`: the calls still `working` in it were cut off by the restart and are
   * settled then — `interrupted` (retryable), or run again when their tool is `idempotent`.
   */
  calls?: CallStore;
}

/**
 * What `run.decide` answers, before the resumed call runs: whether the decision was taken and,
 * if it was, the call's result to come; if not, why (`reason`, with an `approval-invalid` error
 * saying it in words) — nothing ran.
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import type { Decided, Run } from '@toolctx/core';
 * declare const run: Run;
 * const decided: Decided = run.decide('appr_1', { approved: true });
 * if (!decided.taken) console.log(decided.reason); // 'unknown-approval', 'already-decided', …
 * else console.log((await decided.result).ok);
 * ```
 */
export type Decided =
  | { taken: true; toolCallId: string; result: Promise<ToolResult> }
  | { taken: false; reason: DecisionRefusal; error: ErrorInfo };

/**
 * Options of `run.resume`.
 *
 * @example
 * ```ts
 * import type { ResumeOptions, Run } from '@toolctx/core';
 * declare const run: Run;
 * declare const request: Request; // the decider's request, which ends when they hang up
 * declare const approvalId: string;
 * const options: ResumeOptions = { signal: request.signal }; // the decider hung up: cancel the call
 * const result = await run.resume(approvalId, { approved: true }, options);
 * ```
 */
export interface ResumeOptions {
  /** Cancels the resumed call, as a call's own `signal` does. */
  signal?: AbortSignal;
  /**
   * The arguments to run the approved call with, for a host that keeps its own copy of the call
   * (the AI SDK reads it back from the conversation's messages). They are validated and the call
   * runs only if they hash as the arguments that were approved; otherwise it fails
   * `approval-invalid` (`details.reason: 'args-changed'`) and the tool does not run. Default: the
   * arguments the call was filed with.
   */
  args?: unknown;
  /** Data for the resumed call alone, which the tool reads as `ctx.meta`. */
  meta?: Readonly<Record<string, unknown>>;
}

/**
 * What every door's run has — a local {@link Run}, a Worker run from `connectWorker` — for code
 * that only calls tools through a run, such as `toAiSdkTools`.
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import type { CallableRun } from '@toolctx/core';
 * const countWords = (run: CallableRun, text: string) => run.call({ tool: 'count_words', args: { text } });
 * ```
 */
export interface CallableRun {
  readonly runId: string;
  /** Every event of the run, in `seq` order. */
  readonly events: RunEvents;
  /** Calls one tool; resolves to a `ToolResult`, never rejects for the tool's failure. */
  call(request: CallRequest): Promise<ToolResult>;
}

/**
 * A run: a sequence of tool calls with one ordered event record.
 *
 * @example
 * ```ts
 * import type { Runtime } from '@toolctx/core';
 * declare const runtime: Runtime;
 * const run = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' } });
 * const result = await run.call({ tool: 'count_words', args: { text: 'a b c' } });
 * if (result.ok) console.log(result.content); // '3'
 * await run.end();
 * ```
 */
export interface Run extends CallableRun {
  /** Fires when the run is aborted or ended. */
  readonly signal: AbortSignal;
  /** Counters of progress reports the run dropped or refused. */
  readonly stats: Readonly<RunStats>;
  /** The tools this run may offer a model, as JSON Schemas: in `plan`, only `read` tools. */
  listTools(): ToolSchema[];
  /** Calls one tool; a batch of one. Resolves to a `ToolResult`, never rejects for the tool's failure. */
  call(request: CallRequest): Promise<ToolResult>;
  /** Calls tools concurrently, one batch; results in the order asked. */
  callBatch(requests: readonly CallRequest[]): Promise<ToolResult[]>;
  /**
   * Decides an approval that a call left pending (`approval-pending`) and answers at once whether
   * the decision was taken: approved, the call runs now (in flight like any call: the run's end,
   * `run.cancel` and `options.signal` cancel it) and `result` resolves to its result; denied, to
   * an `approval-denied` failure. An approval that is not pending (unknown, decided already, its
   * call cancelled, another run's) or a malformed decision is not taken (`reason` says which)
   * and runs nothing.
   */
  decide(approvalId: string, decision: ApprovalDecision, options?: ResumeOptions): Decided;
  /**
   * {@link Run.decide} as one promise: the resumed call's result, or the `approval-invalid`
   * failure of a decision not taken (its `details.reason` says why).
   */
  resume(approvalId: string, decision: ApprovalDecision, options?: ResumeOptions): Promise<ToolResult>;
  /**
   * Cancels one call of the run: a running one is aborted (`tool.failed`, `aborted`, with
   * `reason` in its message); one that waits for approval is settled so and its approval can no
   * longer be decided. `toolCallId` may also be the id of the approval a call waits for or was
   * resumed by. Whether there was such a call to cancel.
   */
  cancel(toolCallId: string, reason?: string): boolean;
  /**
   * A call's handle: its status and, once settled, its result — kept while the run is kept (in
   * memory, every open call and the newest 1,000 settled ones). `undefined` for an unknown id.
   */
  callStatus(toolCallId: string): CallHandle | undefined;
  /** The handles of the calls not settled yet (`working`, `input_required`), the oldest first. */
  openCalls(): CallHandle[];
  /** The asks of the run's calls waiting for their answer (`ctx.ask`), the oldest first. */
  asks(): OpenAsk[];
  /**
   * The approvals the run's calls wait for, the oldest first: each call's tool and the arguments it
   * would run with once approved, for the person deciding (`decide` takes the decision).
   *
   * @example
   * ```ts
   * import type { Run } from '@toolctx/core';
   * declare const run: Run;
   * for (const { approvalId, tool, args } of run.pendingApprovals())
   *   console.log(`${approvalId}: ${tool} would run with ${JSON.stringify(args)}`);
   * ```
   */
  pendingApprovals(): OpenApproval[];
  /**
   * Answers an open ask: checked against it (a form's values against its schema), taken once,
   * and the asking call goes on with it. Not taken: `unknown` (no open ask by that id: answered
   * already, withdrawn, another run's) or `invalid` (the ask stays open for a corrected answer).
   *
   * @example
   * ```ts
   * import type { Run } from '@toolctx/core';
   * declare const run: Run;
   * const [open] = run.asks();
   * if (open) await run.answer(open.askId, { action: 'accept', values: { from: 'savings' } });
   * ```
   */
  answer(askId: string, answer: AskAnswer): Promise<Answered>;
  /** Cancels every call in flight, then finishes the run as aborted. */
  abort(reason?: string): Promise<void>;
  /** Finishes the run: cancels what is still in flight, fires run teardown, emits `run.finished`. */
  end(): Promise<void>;
}
