import type {
  ApprovalDecision,
  AskAnswer,
  Decided,
  ErrorInfo,
  Identity,
  Phase,
  ToolEvent,
  ToolResult,
} from '@toolctx/core';

/** The run options that can cross to the Worker (a signal stays in the page). */
export interface WorkerStartOptions {
  identity?: Identity;
  sessionId?: string;
  phase?: Phase;
  state?: Record<string, unknown>;
}

/**
 * A call as it crosses. Its id is always set (the page makes one when the request has none): the
 * page's signal cancels it by that id, as `run.cancel` does.
 */
export interface WireCall {
  tool: string;
  args: unknown;
  toolCallId: string;
}

/** `run.decide`'s answer as it crosses: the result to come follows in a message of its own. */
export type WireDecided = { taken: true; toolCallId: string } | Extract<Decided, { taken: false }>;

/** Counters a Worker run reports back with each answer. */
export interface WireStats {
  reportsDropped: number;
  reportsRejected: number;
}

/**
 * Page → Worker. Each verb of the run the Worker answers by `id`: `results` for a call,
 * `answer` for the others; `decide` is answered twice, whether the decision was taken (`id`),
 * then, if it was, the resumed call's result (`result`). `cancel` is the one cancel: `run.cancel`
 * and a call's or a decision's signal (naming the approval) both send it.
 */
export type ToWorker =
  | { t: 'start'; runId: string; options: WorkerStartOptions }
  | { t: 'call'; id: number; runId: string; calls: WireCall[] }
  | { t: 'decide'; id: number; result: number; runId: string; approvalId: string; decision: ApprovalDecision }
  | { t: 'cancel'; id: number; runId: string; toolCallId: string; reason?: string }
  | { t: 'status'; id: number; runId: string; toolCallId: string }
  | { t: 'open-calls'; id: number; runId: string }
  | { t: 'asks'; id: number; runId: string }
  | { t: 'pending-approvals'; id: number; runId: string }
  | { t: 'answer-ask'; id: number; runId: string; askId: string; answer: AskAnswer }
  | { t: 'abort'; id: number; runId: string; reason?: string }
  | { t: 'end'; id: number; runId: string };

/** Worker → page. `lock` names a Web Lock the Worker holds until it dies. */
export type FromWorker =
  | { t: 'ready'; lock?: string }
  | { t: 'event'; event: ToolEvent }
  | { t: 'results'; id: number; results: ToolResult[]; stats?: WireStats }
  | { t: 'answer'; id: number; value: unknown }
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
