import type { ApprovalDecision, ErrorInfo, Identity, Phase, ToolEvent, ToolResult } from '@toolctx/core';

/** The run options that can cross to the Worker (a signal stays in the page). */
export interface WorkerStartOptions {
  identity?: Identity;
  sessionId?: string;
  phase?: Phase;
  state?: Record<string, unknown>;
}

/** A call as it crosses: `cancel` names the page's AbortSignal, when it has one. */
export interface WireCall {
  tool: string;
  args: unknown;
  toolCallId?: string;
  cancel?: number;
}

/** Counters a Worker run reports back with each answer. */
export interface WireStats {
  progressDropped: number;
  progressRejected: number;
}

/** Page → Worker. */
export type ToWorker =
  | { t: 'start'; runId: string; options: WorkerStartOptions }
  | { t: 'call'; id: number; runId: string; calls: WireCall[] }
  | {
      t: 'resume';
      id: number;
      runId: string;
      approvalId: string;
      decision: ApprovalDecision;
      cancel?: number;
    }
  | { t: 'cancel'; key: number }
  | { t: 'cancel-pending'; runId: string; toolCallId: string }
  | { t: 'abort'; id: number; runId: string; reason?: string }
  | { t: 'end'; id: number; runId: string };

/** Worker → page. `lock` names a Web Lock the Worker holds until it dies. */
export type FromWorker =
  | { t: 'ready'; lock?: string }
  | { t: 'event'; event: ToolEvent }
  | { t: 'results'; id: number; results: ToolResult[]; stats?: WireStats }
  | { t: 'done'; id: number; stats?: WireStats };

/** Marks the messages of this protocol, so other traffic on the same Worker is left alone. */
export const wireTag = 'toolctx/worker@1';

/** A message of this protocol in its envelope. */
export interface Envelope<Message> {
  tag: typeof wireTag;
  message: Message;
}

/** Whether `data` is one of our envelopes. */
export function isEnvelope<Message>(data: unknown): data is Envelope<Message> {
  return (data as Envelope<Message> | null)?.tag === wireTag;
}

/**
 * The failure a call settles with when its Worker is gone: `door-lost`, not `internal`, because
 * nothing is broken but the place the tool ran; the caller's way on is a new Worker.
 */
export function workerLost(cause: 'terminated' | 'uncaught-error'): ErrorInfo {
  return {
    kind: 'door-lost',
    message:
      cause === 'terminated'
        ? 'The Web Worker running this tool was terminated before the call finished.'
        : 'The Web Worker running this tool failed with an uncaught error and was stopped.',
    retryable: false,
    details: { door: 'web-worker', cause },
  };
}
