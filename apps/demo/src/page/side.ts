import type {
  Answered,
  ApprovalDecision,
  AskAnswer,
  CallableRun,
  CallRequest,
  Run,
  ToolEvent,
  ToolResult,
} from '@toolctx/core';

/** An artifact as the panel lists it. */
export interface ArtifactRow {
  ref: string;
  kind: string;
  bytes: number;
  label?: string;
}

/** A call in flight: its id (for Cancel) and its result to come. */
export interface CallHandle {
  callId: string;
  result: Promise<ToolResult>;
}

/**
 * What the agent's tools (`toAiSdkTools`) use of a side's run: its calls, and `resume` for a call
 * a person approved through the AI SDK's approval flow.
 */
export type AgentRun = CallableRun & Pick<Run, 'resume'>;

/**
 * Where the tools run, as one column of the page sees it. Two implementations: the page's Web
 * Worker (`createPageSide`) and the Cloudflare Worker over HTTP (`createWorkerSide`).
 */
export interface Side {
  readonly runId: string;
  /** The run's events, for the status widget and the artifacts panel. */
  readonly events: { subscribe(listener: (event: ToolEvent) => void): () => void };
  /** The run itself, for an agent's tools (`toAiSdkTools`): its calls show in the same widget. */
  readonly run: AgentRun;
  call(tool: string, args: unknown): CallHandle;
  cancel(callId: string): Promise<void>;
  decide(approvalId: string, decision: ApprovalDecision): Promise<ToolResult>;
  /** Answers a call's ask: the status widget's form on the call's line calls this. */
  answer(askId: string, answer: AskAnswer): Promise<Answered>;
  listArtifacts(): Promise<ArtifactRow[]>;
  download(ref: string): Promise<Blob>;
  /** The arguments a call of this page was made with, for the words beside Approve and Deny. */
  argsOf(callId: string): unknown;
}

/**
 * `run` that remembers the arguments of each call made through it (the agent's and the buttons'),
 * since events carry none: the widget describes a waiting approval with them. A call that needs
 * approval settles as `approval-pending` before anyone decides, so the last 200 calls are kept,
 * not only those in flight; a call from before a reload is described by its tool's name alone.
 */
export function rememberingArgs<R extends CallableRun>(run: R): { run: R; argsOf(callId: string): unknown } {
  const args = new Map<string, unknown>();
  const remembering: R = Object.assign(Object.create(run) as R, {
    call(call: CallRequest): Promise<ToolResult> {
      const toolCallId = call.toolCallId ?? `call_${crypto.randomUUID()}`;
      args.set(toolCallId, call.args);
      if (args.size > 200) args.delete(args.keys().next().value as string);
      return run.call({ ...call, toolCallId });
    },
  });
  return { run: remembering, argsOf: (callId) => args.get(callId) };
}
