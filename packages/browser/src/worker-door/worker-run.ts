import type {
  Answered,
  ApprovalDecision,
  AskAnswer,
  CallHandle,
  Decided,
  ErrorInfo,
  OpenApproval,
  OpenAsk,
  ResumeOptions,
  Run,
  ToolEvent,
  ToolResult,
} from '@toolctx/core';
import { createEventHub } from '../events/event-hub.js';
import type { WireCall, WireStats } from './protocol.js';

/**
 * A run whose tools execute in a Worker: core's `Run` with the verbs the Worker answers made
 * asynchronous, since they cross `postMessage` — `cancel`, `decide`, `callStatus`, `openCalls`,
 * `asks` and `pendingApprovals` (`answer` is asynchronous everywhere) resolve to what the Worker's run answers (the same as a local run's, a message later). So
 * `attachStatus`, `chatTools` and code that awaits those verbs take it as it is. `listTools` is left
 * out: the tool list lives in the Worker. Once the run has ended the Worker keeps nothing of it:
 * `callStatus` then answers `undefined`.
 */
export interface WorkerRun
  extends Omit<
    Run,
    'listTools' | 'decide' | 'cancel' | 'callStatus' | 'openCalls' | 'asks' | 'pendingApprovals'
  > {
  /** `run.decide` in the Worker: whether the decision was taken, then the resumed call's result. */
  decide(approvalId: string, decision: ApprovalDecision, options?: ResumeOptions): Promise<Decided>;
  /** `run.cancel` in the Worker: whether there was such a call to cancel. */
  cancel(toolCallId: string, reason?: string): Promise<boolean>;
  /** `run.callStatus` in the Worker: the call's handle, with its result once settled. */
  callStatus(toolCallId: string): Promise<CallHandle | undefined>;
  /** `run.openCalls` in the Worker: the handles of the calls not settled yet. */
  openCalls(): Promise<CallHandle[]>;
  /** `run.asks` in the Worker: the asks of its calls waiting for an answer. */
  asks(): Promise<OpenAsk[]>;
  /** `run.pendingApprovals` in the Worker: what its calls waiting for approval would run with. */
  pendingApprovals(): Promise<OpenApproval[]>;
}

/** How a Worker run reaches its Worker; supplied by `connectWorker`. */
export interface WorkerRunWire {
  call(requests: readonly WireCall[]): Promise<ToolResult[]>;
  decide(approvalId: string, decision: ApprovalDecision): Promise<Decided>;
  cancel(toolCallId: string, reason?: string): Promise<boolean>;
  callStatus(toolCallId: string): Promise<CallHandle | undefined>;
  openCalls(): Promise<CallHandle[]>;
  asks(): Promise<OpenAsk[]>;
  pendingApprovals(): Promise<OpenApproval[]>;
  answer(askId: string, answer: AskAnswer): Promise<Answered>;
  finish(how: 'abort' | 'end', reason?: string): Promise<void>;
  forget(): void;
}

/** The run, and what the connection feeds it. */
export interface WorkerRunLink {
  readonly run: WorkerRun;
  receive(event: ToolEvent): void;
  /** The Worker's counters for the run, sent with each answer. */
  keepStats(next: WireStats | undefined): void;
  /** The Worker is gone: fail the calls in flight in the record, finish the run, close the stream. */
  lose(error: ErrorInfo): void;
}

/** Makes the page-side proxy of one Worker run. */
export function createWorkerRun(runId: string, wire: WorkerRunWire): WorkerRunLink {
  const hub = createEventHub();
  const controller = new AbortController();
  const stats: WireStats = { reportsDropped: 0, reportsRejected: 0 };
  // What the page has seen start and not end: failed in the record if the Worker dies.
  const inflight = new Map<string, { tool: string; startedAt: number; parentId?: string }>();
  let lastSeq = 0;
  let calls = 0;
  let finished = false;
  let finishing: Promise<void> | undefined;

  /** Sends a cancel for `id` when `signal` fires (now, if it has); returns what stops listening. */
  const cancelOn = (signal: AbortSignal | undefined, id: string) => {
    if (!signal) return () => {};
    const onAbort = () => void wire.cancel(id);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  };

  const record = (event: ToolEvent) => {
    lastSeq = Math.max(lastSeq, event.seq);
    const data = event.data as { tool?: string };
    if (event.callId && typeof data.tool === 'string') {
      if (event.type === 'tool.started') {
        calls++;
        const started = { tool: data.tool, startedAt: Date.now() };
        inflight.set(event.callId, event.parentId ? { ...started, parentId: event.parentId } : started);
      } else if (event.type === 'tool.finished' || event.type === 'tool.failed') {
        inflight.delete(event.callId);
      }
    }
    hub.push(event);
    if (event.type === 'run.finished') {
      finished = true;
      controller.abort();
      hub.close();
      wire.forget();
    }
  };
  const run: WorkerRun = {
    runId,
    events: hub.events,
    signal: controller.signal,
    stats,
    async call(request) {
      const [result] = await run.callBatch([request]);
      return result!;
    },
    async callBatch(requests) {
      // Each call gets its id here, so the page's signal can name it to the Worker's `run.cancel`.
      const calls = requests.map(({ signal: _signal, ...call }) => ({
        ...call,
        toolCallId: call.toolCallId ?? `call_${crypto.randomUUID()}`,
      }));
      const results = wire.call(calls);
      const stops = requests.map((request, i) => cancelOn(request.signal, calls[i]!.toolCallId));
      try {
        return await results;
      } finally {
        for (const stop of stops) stop();
      }
    },
    async decide(approvalId, decision, options) {
      const decided = wire.decide(approvalId, decision);
      // The run knows a resumed call by the approval that resumed it, too.
      const stop = cancelOn(options?.signal, approvalId);
      const answer = await decided;
      if (!answer.taken) {
        stop();
        return answer;
      }
      return { ...answer, result: answer.result.finally(stop) };
    },
    async resume(approvalId, decision, options) {
      const decided = await run.decide(approvalId, decision, options);
      return decided.taken ? decided.result : { ok: false, error: decided.error };
    },
    cancel: (toolCallId, reason) => (finished ? Promise.resolve(false) : wire.cancel(toolCallId, reason)),
    callStatus: (toolCallId) => wire.callStatus(toolCallId),
    openCalls: () => wire.openCalls(),
    asks: () => wire.asks(),
    pendingApprovals: () => wire.pendingApprovals(),
    answer: (askId, answer) => wire.answer(askId, answer),
    abort(reason) {
      finishing ??= wire.finish('abort', reason);
      controller.abort();
      return finishing;
    },
    end() {
      finishing ??= wire.finish('end');
      controller.abort();
      return finishing;
    },
  };
  return {
    run,
    receive: record,
    keepStats: (next) => void (next && Object.assign(stats, next)),
    lose(error) {
      if (finished) return;
      const ts = Date.now();
      for (const [callId, call] of inflight) {
        const failed = { tool: call.tool, durationMs: ts - call.startedAt, error };
        const event: ToolEvent = { type: 'tool.failed', seq: lastSeq + 1, runId, callId, ts, data: failed };
        if (call.parentId) event.parentId = call.parentId;
        record(event);
      }
      record({ type: 'run.finished', seq: lastSeq + 1, runId, ts, data: { status: 'aborted', calls } });
    },
  };
}
