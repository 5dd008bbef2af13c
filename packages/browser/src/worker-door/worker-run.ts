import type { ApprovalDecision, CallRequest, ErrorInfo, Run, ToolEvent, ToolResult } from '@toolctx/core';
import { createEventHub } from '../events/event-hub.js';
import type { WireStats } from './protocol.js';

/**
 * A run whose tools execute in a Worker: the same shape as core's `Run`, so `attachStatus`,
 * `chatTools` and code written against a local run take it as it is. `listTools` is left out: the
 * tool list lives in the Worker and cannot be read synchronously from the page. `cancelPending`
 * answers from what the page has seen: `true` for a call whose approval was requested and is not
 * decided, settled or being decided from this page (`resume` called); the Worker then files it
 * failed as `aborted`, as a local run does at once.
 */
export interface WorkerRun extends Omit<Run, 'listTools' | 'decide' | 'callStatus' | 'openCalls'> {}

/** How a Worker run reaches its Worker; supplied by `connectWorker`. */
export interface WorkerRunWire {
  call(requests: readonly CallRequest[], cancelKeys: (number | undefined)[]): Promise<ToolResult[]>;
  resume(approvalId: string, decision: ApprovalDecision, cancelKey?: number): Promise<ToolResult>;
  cancel(key: number): void;
  cancelPending(toolCallId: string): void;
  finish(how: 'abort' | 'end', reason?: string): Promise<void>;
  forget(): void;
  nextCancelKey(): number;
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
  const stats: WireStats = { progressDropped: 0, progressRejected: 0 };
  const inflight = new Map<string, { tool: string; startedAt: number; parentId?: string }>();
  /** Calls waiting for approval, by call id: their approval's id. */
  const waiting = new Map<string, string>();
  let lastSeq = 0;
  let calls = 0;
  let finished = false;
  let finishing: Promise<void> | undefined;

  const record = (event: ToolEvent) => {
    lastSeq = Math.max(lastSeq, event.seq);
    const data = event.data as { tool?: string };
    if (event.callId && typeof data.tool === 'string') {
      if (event.type === 'tool.started') {
        calls++;
        const started = { tool: data.tool, startedAt: Date.now() };
        inflight.set(event.callId, event.parentId ? { ...started, parentId: event.parentId } : started);
      } else if (event.type === 'approval.requested') {
        waiting.set(event.callId, (event.data as { approvalId: string }).approvalId);
      } else if (
        event.type === 'tool.finished' ||
        event.type === 'tool.failed' ||
        event.type === 'approval.decided'
      ) {
        inflight.delete(event.callId);
        waiting.delete(event.callId);
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
      const keys = requests.map((request) => (request.signal ? wire.nextCancelKey() : undefined));
      const stops = requests.map((request, i) => {
        const key = keys[i];
        if (key === undefined || !request.signal) return () => {};
        const onAbort = () => wire.cancel(key);
        request.signal.addEventListener('abort', onAbort, { once: true });
        return () => request.signal?.removeEventListener('abort', onAbort);
      });
      const results = wire.call(requests, keys);
      requests.forEach((request, i) => {
        if (request.signal?.aborted) wire.cancel(keys[i]!);
      });
      try {
        return await results;
      } finally {
        for (const stop of stops) stop();
      }
    },
    async resume(approvalId, decision, options) {
      // Being decided: no longer one this page can cancel while it waits.
      for (const [callId, waitingOn] of waiting) if (waitingOn === approvalId) waiting.delete(callId);
      // As for a call: the signal cancels the resumed call in the Worker by its key.
      const signal = options?.signal;
      if (!signal) return wire.resume(approvalId, decision);
      const key = wire.nextCancelKey();
      const onAbort = () => wire.cancel(key);
      signal.addEventListener('abort', onAbort, { once: true });
      const result = wire.resume(approvalId, decision, key);
      if (signal.aborted) wire.cancel(key);
      try {
        return await result;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    cancel(toolCallId) {
      if (finished || !(waiting.delete(toolCallId) || inflight.has(toolCallId))) return false;
      wire.cancelPending(toolCallId);
      return true;
    },
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
