import type { ErrorInfo } from '../errors.js';
import type { Phase } from '../policy/phase.js';

/** Who a run acts for, as the HOST established it (authentication), never taken from a caller's body. */
export interface Identity {
  tenant?: string;
  principal?: string;
  conversationId?: string;
}

/**
 * A progress report: any plain data that survives `structuredClone`. A top-level string `message`
 * is shown verbatim; `done` and `total` drive a progress bar.
 */
export type ProgressPayload =
  | { message?: string; done?: number; total?: number; [key: string]: unknown }
  | string
  | number
  | boolean
  | null;

/** What a call resolves to. A call never rejects for a tool's own failure. */
export type ToolResult<Value = unknown> =
  | {
      ok: true;
      /** The tool's own return value. */
      value: Value;
      /** The transcript copy a model reads: text, cut to the output budget. */
      content: string;
      /** Set when the whole result was too big for the budget and saved as an artifact. */
      spilled?: { ref?: string; bytes: number; keptBytes: number };
    }
  | { ok: false; error: ErrorInfo };

/** Asks the runtime to call a tool. */
export interface CallRequest {
  /** The tool's name. */
  tool: string;
  /** Its arguments, validated against the tool's input schema before it runs. */
  args: unknown;
  /** The model's id for this call; a fresh one is made when absent. */
  toolCallId?: string;
  /** Cancels this call (together with the run's signal and the tool's timeout). */
  signal?: AbortSignal;
}

/** Calls another tool of the same runtime as a child of the current call. */
export interface ToolDispatch {
  /**
   * Runs the tool in the same run and phase, linked to this call by `parentId`; this call's
   * signal reaches it. Approval is not inherited. Its failure is data: a `ToolResult`.
   */
  call(request: Omit<CallRequest, 'toolCallId'>): Promise<ToolResult>;
}

/**
 * The context each tool call receives as the second argument of `execute`, built fresh per call.
 *
 * Absent and empty are different facts: `runId` is absent where there is no run (an MCP call);
 * `tools` is absent at a door with no dispatch.
 */
export interface ToolExecutionContext {
  /** The run this call belongs to; absent where the door has no runs. */
  readonly runId?: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** How many batches the run has started, this call's batch included. */
  readonly iteration: number;
  readonly sessionId?: string;
  readonly identity?: Readonly<Identity>;
  /** Read-only data from the host, shared by every call of the run. */
  readonly state: Readonly<Record<string, unknown>>;
  /**
   * Fires when the run is cancelled, the caller aborts, the parent call ends or this tool's timeout
   * passes. Made on first read. A tool that ignores it is still settled when it fires.
   */
  readonly signal: AbortSignal;
  /** Reports live progress. Synchronous; never throws, blocks or changes the result. */
  progress(payload: ProgressPayload): void;
  /** Files a custom event as `custom.<type>`. `data` must be plain data. */
  emit(type: string, data?: unknown): void;
  /** Calls another tool as a child call; absent at doors with no dispatch. */
  readonly tools?: ToolDispatch;
  readonly phase: Phase;
}
