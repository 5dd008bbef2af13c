import type { ApprovalDecision, CallableRun, ToolEvent, ToolResult } from '@toolctx/core';

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
 * Where the tools run, as one column of the page sees it. Two implementations: the page's Web
 * Worker (`createPageSide`) and the Cloudflare Worker over HTTP (`createWorkerSide`).
 */
export interface Side {
  readonly runId: string;
  /** The run's events, for the status widget and the artifacts panel. */
  readonly events: { subscribe(listener: (event: ToolEvent) => void): () => void };
  /** The run itself, for an agent's tools (`toAiSdkTools`): its calls show in the same widget. */
  readonly run: CallableRun;
  call(tool: string, args: unknown): CallHandle;
  cancel(callId: string): Promise<void>;
  decide(approvalId: string, decision: ApprovalDecision): Promise<ToolResult>;
  listArtifacts(): Promise<ArtifactRow[]>;
  download(ref: string): Promise<Blob>;
}
