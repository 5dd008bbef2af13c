import {
  type Answered,
  type Decided,
  type ErrorInfo,
  inProcessDoor,
  type KeptResult,
  type Run,
  type Runtime,
  type ToolEvent,
  type ToolResult,
} from '@toolctx/core';
import { plainJson } from '@toolctx/core/sse';
import { webWorkerDoor } from './door.js';
import {
  type Envelope,
  type FromWorker,
  isEnvelope,
  type ToWorker,
  type WireDecided,
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
  // The runs this Worker serves, by id: core's Run owns each call's life (its handle, its cancel,
  // its approval), so nothing here keeps a call of its own.
  const runs = new Map<string, Run>();
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
  const sendResults = (id: number, results: ToolResult[], run: Run | undefined) => {
    try {
      send({ t: 'results', id, results, stats: stats(run) });
    } catch {
      send({ t: 'results', id, results: results.map(cloneable), stats: stats(run) });
    }
  };

  const onMessage = async (messageEvent: MessageEvent) => {
    if (!isEnvelope<ToWorker>(messageEvent.data)) return;
    const message = messageEvent.data.message;
    const run = runs.get(message.runId);
    switch (message.t) {
      case 'start': {
        const started = served.startRun({ ...message.options, runId: message.runId, onEvent: sendEvent });
        runs.set(message.runId, started);
        return;
      }
      case 'call': {
        const results: ToolResult[] = run
          ? await run.callBatch(message.calls)
          : message.calls.map(() => ({ ok: false, error: runGone(message.runId) }));
        sendResults(message.id, results, run);
        return;
      }
      case 'decide': {
        const decided: Decided = run
          ? run.decide(message.approvalId, message.decision)
          : { taken: false, reason: 'unknown-approval', error: runGone(message.runId) };
        // Answered before the resumed call runs, as `run.decide` answers; its result follows.
        if (!decided.taken) {
          send({ t: 'answer', id: message.id, value: decided });
          return;
        }
        const answer: WireDecided = { taken: true, toolCallId: decided.toolCallId };
        send({ t: 'answer', id: message.id, value: answer });
        sendResults(message.result, [cloneable(await decided.result)], run);
        return;
      }
      case 'cancel':
        send({
          t: 'answer',
          id: message.id,
          value: run?.cancel(message.toolCallId, message.reason) ?? false,
        });
        return;
      case 'status': {
        const handle = run?.callStatus(message.toolCallId);
        if (handle?.result) handle.result = cloneable(handle.result);
        send({ t: 'answer', id: message.id, value: handle });
        return;
      }
      case 'open-calls':
        send({ t: 'answer', id: message.id, value: run?.openCalls() ?? [] });
        return;
      case 'asks':
        send({ t: 'answer', id: message.id, value: run?.asks() ?? [] });
        return;
      case 'pending-approvals': {
        const approvals = run?.pendingApprovals() ?? [];
        try {
          send({ t: 'answer', id: message.id, value: approvals });
        } catch {
          // Arguments a schema's transform made uncloneable (a function, a class) cross as JSON.
          send({ t: 'answer', id: message.id, value: JSON.parse(plainJson(approvals)) });
        }
        return;
      }
      case 'answer-ask': {
        const answered: Answered = run
          ? await run.answer(message.askId, message.answer)
          : { taken: false, reason: 'unknown', error: runGone(message.runId) };
        send({ t: 'answer', id: message.id, value: answered });
        return;
      }
      case 'abort':
      case 'end': {
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

function cloneable<R extends KeptResult>(result: R): R | { ok: false; error: ErrorInfo } {
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

function runGone(runId: string): ErrorInfo {
  return {
    kind: 'aborted',
    message: `The run ${runId} has ended in the Worker; start a new run.`,
    retryable: false,
  };
}
