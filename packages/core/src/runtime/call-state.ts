// The types the pipeline, its guards and the approval step share: the run and the call as they
// see them. Types only, so that those files import none of each other for them.
import type { ApprovalPort } from '../approval/approval.js';
import type { ApprovalCheck } from '../approval/approval-tokens.js';
import type { ErrorInfo } from '../errors.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { DispatchFactory, Invocation } from './invocation.js';
import type { RunApprovals } from './run-approvals.js';
import type { CallFacts, RunFacts } from './run-facts.js';
import type { ToolPlan } from './tool-plan.js';

/** The run as the pipeline of its calls sees it: the facts its contexts share, and its own parts. */
export interface CallingRun extends RunFacts {
  /** Whether the run has ended (or is ending): no call starts then. */
  readonly ended: boolean;
  /** Calls started, counted for `run.finished`. */
  calls: number;
  /** The run's spending cap, checked before each call. */
  readonly maxUsd: number | undefined;
  /** The one owner of the run's pending approvals and approval tokens. */
  readonly approvals: RunApprovals;
  /** Makes `ctx.tools` for an attempt, at a door with dispatch. */
  readonly dispatch: DispatchFactory | undefined;
  /** Asked when the approval port answers `'pending'`, for a call the door can ask a person about. */
  readonly decidePending?: ApprovalPort | undefined;
}

/**
 * The decision a resumed call carries: what the person approved, bound to the hash they were shown;
 * `validate` when the host brought its own copy of the arguments, which are checked again.
 */
export type Resumed = { approvalId: string; argsHash: string; reason?: string; validate?: boolean };

/**
 * A call on its way through its run: the facts its context reads (filled in as it passes its
 * guards) and what the pipeline needs to finish it.
 */
export interface CallState extends CallFacts {
  readonly tool: AnyTool;
  /** The tool's plan, for a call started here (a resumed or recovered call goes without). */
  readonly plan?: ToolPlan;
  readonly invocation: Invocation;
  /** Its share of the transcript budget, in bytes. */
  readonly budgetBytes: number;
  readonly startedAt: number;
  /** The decision it was resumed with, for a call that waited for approval. */
  readonly resumed?: Resumed;
  /** The validated arguments before any guard changed them: what a call that waits is filed with. */
  given?: unknown;
  /** Set by the trifecta guard: this send needs a person's approval. */
  mustAsk?: boolean;
  /** Set by the approval guard: uses up the call's one-use token against its final arguments. */
  useToken?: (args: unknown) => Promise<ApprovalCheck>;
}

/** What a guard answers: the arguments the next guard (and last the tool) gets, or a refusal. */
export type GuardVerdict = { ok: true; args: unknown } | { ok: false; error: ErrorInfo };
