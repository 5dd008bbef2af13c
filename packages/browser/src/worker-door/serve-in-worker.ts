import { inProcessDoor, type Run, type Runtime, type ToolEvent, type ToolResult } from '@toolctx/core';
import { plainJson } from '@toolctx/core/sse';
import { webWorkerDoor } from './door.js';
import {
  type Envelope,
  type FromWorker,
  isEnvelope,
  type ToWorker,
  type WireStats,
  wireTag,
} from './protocol.js';

/** The side of a Worker that `serveInWorker` listens on: the Worker's global scope by default. */
export interface WorkerScopeLike {
  /** Sends a message to the page. */
  postMessage(message: unknown): void;
  /** Listens for messages from the page. */
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** Stops listening for messages from the page. */
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** What `serveInWorker` returns. */
export interface WorkerServer {
  /** Stops answering the page; runs in flight are aborted. */
  close(): Promise<void>;
}

/**
 * Serves `runtime`'s tools to the page from inside a dedicated Worker. Call it at the top level of
 * the Worker module; the page connects with `connectWorker`. A runtime on the default in-process
 * door is served through `webWorkerDoor`.
 *
 * @example
 * ```ts
 * // tools.worker.ts
 * import { serveInWorker } from '@toolctx/browser/worker';
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * declare const tools: AnyTool[]; // your defineTool(...) results
 * serveInWorker(createRuntime({ tools }));
 * ```
 */
export function serveInWorker(
  runtime: Runtime,
  scope: WorkerScopeLike = globalThis as unknown as WorkerScopeLike,
): WorkerServer {
  const served = runtime.door === inProcessDoor ? runtime.withDoor(webWorkerDoor) : runtime;
  const runs = new Map<string, Run>();
  const cancels = new Map<number, AbortController>();
  const send = (message: FromWorker) =>
    scope.postMessage({ tag: wireTag, message } satisfies Envelope<FromWorker>);
  const stats = (run: Run | undefined): WireStats | undefined => run && { ...run.stats };
  const sendEvent = (event: ToolEvent) => {
    try {
      send({ t: 'event', event });
    } catch {
      // Core checks progress for clone safety; anything else that slipped through crosses as JSON.
      send({ t: 'event', event: JSON.parse(plainJson(event)) });
    }
  };

  const onMessage = async (messageEvent: MessageEvent) => {
    if (!isEnvelope<ToWorker>(messageEvent.data)) return;
    const message = messageEvent.data.message;
    switch (message.t) {
      case 'start': {
        const run = served.startRun({ ...message.options, runId: message.runId, onEvent: sendEvent });
        runs.set(message.runId, run);
        return;
      }
      case 'call': {
        const run = runs.get(message.runId);
        const requests = message.calls.map(({ cancel, ...request }) => {
          if (cancel === undefined) return request;
          const controller = new AbortController();
          cancels.set(cancel, controller);
          return { ...request, signal: controller.signal };
        });
        const results: ToolResult[] = run
          ? await run.callBatch(requests)
          : requests.map(() => ({ ok: false, error: runGone(message.runId) }));
        for (const call of message.calls) if (call.cancel !== undefined) cancels.delete(call.cancel);
        try {
          send({ t: 'results', id: message.id, results, stats: stats(run) });
        } catch {
          send({ t: 'results', id: message.id, results: results.map(cloneable), stats: stats(run) });
        }
        return;
      }
      case 'resume': {
        const run = runs.get(message.runId);
        const controller = message.cancel === undefined ? undefined : new AbortController();
        if (controller) cancels.set(message.cancel!, controller);
        const result: ToolResult = run
          ? await run.resume(
              message.approvalId,
              message.decision,
              controller ? { signal: controller.signal } : {},
            )
          : { ok: false, error: runGone(message.runId) };
        if (controller) cancels.delete(message.cancel!);
        send({ t: 'results', id: message.id, results: [cloneable(result)], stats: stats(run) });
        return;
      }
      case 'cancel':
        cancels.get(message.key)?.abort();
        return;
      case 'cancel-pending':
        runs.get(message.runId)?.cancel(message.toolCallId);
        return;
      case 'abort':
      case 'end': {
        const run = runs.get(message.runId);
        if (run) await (message.t === 'abort' ? run.abort(message.reason) : run.end());
        runs.delete(message.runId);
        send({ t: 'done', id: message.id, stats: stats(run) });
        return;
      }
    }
  };
  scope.addEventListener('message', onMessage);
  announce(send);
  return {
    async close() {
      scope.removeEventListener('message', onMessage);
      await Promise.all([...runs.values()].map((run) => run.abort('the Worker stopped serving')));
      runs.clear();
    },
  };
}

/**
 * Tells the page the Worker is listening. Where Web Locks exist, the Worker first takes a lock it
 * holds until it dies, so the page learns of its death even from a `terminate()` it did not see.
 */
function announce(send: (message: FromWorker) => void): void {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) {
    send({ t: 'ready' });
    return;
  }
  const lock = `toolctx-worker-${crypto.randomUUID()}`;
  void locks.request(lock, () => {
    send({ t: 'ready', lock });
    return new Promise<never>(() => {});
  });
}

function cloneable(result: ToolResult): ToolResult {
  try {
    structuredClone(result);
    return result;
  } catch {
    return {
      ok: false,
      error: {
        kind: 'internal',
        message: "The tool's return value cannot cross to the page (DataCloneError): return plain data.",
        exception: 'DataCloneError',
        retryable: false,
      },
    };
  }
}

function runGone(runId: string) {
  return {
    kind: 'aborted' as const,
    message: `The run ${runId} has ended in the Worker; start a new run.`,
    retryable: false,
  };
}
