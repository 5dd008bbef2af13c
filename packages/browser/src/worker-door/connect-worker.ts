import type {
  Answered,
  CallHandle,
  ErrorInfo,
  OpenApproval,
  OpenAsk,
  StartRunOptions,
  ToolResult,
} from '@toolctx/core';
import {
  type Envelope,
  type FromWorker,
  isEnvelope,
  type ToWorker,
  type WireDecided,
  wireTag,
  workerLost,
} from './protocol.js';
import { createWorkerRun, type WorkerRun, type WorkerRunLink } from './worker-run.js';

/** The page's side of a Worker that serves tools. */
export interface WorkerConnection {
  /** Starts a run in the Worker; its id is made here, so it is known at once. */
  startRun(options?: Omit<StartRunOptions, 'runId'>): WorkerRun;
  /** Terminates the Worker; every call in flight settles as failed. */
  terminate(): void;
  /** Why the Worker can no longer answer, once it cannot. */
  readonly lost: ErrorInfo | undefined;
}

type Pending = { runId: string } & (
  | { kind: 'call'; size: number; resolve(results: ToolResult[]): void }
  | { kind: 'void'; resolve(): void }
  | { kind: 'answer'; resolve(value: unknown): void; fallback: (error: ErrorInfo) => unknown }
);

/**
 * Connects the page to a Worker whose module called `serveInWorker`. Calls, cancellation, progress
 * events and errors cross `postMessage`. If the Worker dies — `terminate()` (noticed through a Web
 * Lock the Worker holds) or an uncaught error — every call in flight settles as failed with
 * kind `door-lost` (`details.cause` says which), and its run ends; no promise is left hanging.
 *
 * @example
 * ```ts
 * import { attachStatus } from '@toolctx/browser/status';
 * import { connectWorker } from '@toolctx/browser/worker';
 * const tools = connectWorker(new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' }));
 * const run = tools.startRun();
 * attachStatus(document.querySelector('#status')!, run);
 * const result = await run.call({ tool: 'count_words', args: { text: 'a b' } });
 * ```
 */
export function connectWorker(worker: Worker): WorkerConnection {
  const pending = new Map<number, Pending>();
  const runs = new Map<string, WorkerRunLink>();
  const queue: ToWorker[] = [];
  const released = new AbortController();
  let ready = false;
  let lost: ErrorInfo | undefined;
  let nextId = 1;

  const post = (message: ToWorker) => {
    if (!ready) queue.push(message);
    else worker.postMessage({ tag: wireTag, message } satisfies Envelope<ToWorker>);
  };

  const lose = (error: ErrorInfo) => {
    if (lost) return;
    lost = error;
    released.abort();
    worker.removeEventListener('message', onMessage);
    worker.removeEventListener('error', onError);
    for (const entry of pending.values()) {
      if (entry.kind === 'call')
        entry.resolve(Array.from({ length: entry.size }, () => ({ ok: false, error })));
      else if (entry.kind === 'answer') entry.resolve(entry.fallback(error));
      else entry.resolve();
    }
    pending.clear();
    for (const run of runs.values()) run.lose(error);
    runs.clear();
  };

  const onMessage = (messageEvent: MessageEvent) => {
    if (!isEnvelope<FromWorker>(messageEvent.data)) return;
    const message = messageEvent.data.message;
    switch (message.t) {
      case 'ready': {
        ready = true;
        for (const queued of queue.splice(0)) post(queued);
        if (message.lock) watchLock(message.lock, released.signal, () => lose(workerLost('terminated')));
        return;
      }
      case 'event':
        if (message.event.runId) runs.get(message.event.runId)?.receive(message.event);
        return;
      case 'results':
      case 'answer':
      case 'done': {
        const entry = pending.get(message.id);
        pending.delete(message.id);
        if (entry && message.t !== 'answer') runs.get(entry.runId)?.keepStats(message.stats);
        if (entry?.kind === 'call' && message.t === 'results') entry.resolve(message.results);
        else if (entry?.kind === 'answer' && message.t === 'answer') entry.resolve(message.value);
        else if (entry?.kind === 'void') entry.resolve();
        return;
      }
    }
  };
  const onError = (event: Event) => {
    event.preventDefault();
    worker.terminate();
    lose(workerLost('uncaught-error'));
  };
  worker.addEventListener('message', onMessage);
  worker.addEventListener('error', onError);

  const request = <T>(
    make: (id: number) => ToWorker,
    entry: (resolve: (value: T) => void) => Pending,
    fallback: T,
  ) =>
    new Promise<T>((resolve) => {
      if (lost) return resolve(fallback);
      const id = nextId++;
      pending.set(id, entry(resolve));
      post(make(id));
    });

  return {
    startRun(options = {}) {
      const runId = `run_${crypto.randomUUID()}`;
      const { signal, ...crossing } = options;
      // A verb the Worker answers with a value; `fallback` is the answer once the Worker is gone.
      const ask = <T>(make: (id: number) => ToWorker, fallback: (error: ErrorInfo) => T) =>
        request<T>(
          make,
          (resolve) => ({ runId, kind: 'answer', resolve: resolve as (value: unknown) => void, fallback }),
          fallback(lost ?? workerLost('terminated')),
        );
      const results = (id: number, size: number, fallback: ToolResult[]) =>
        new Promise<ToolResult[]>((resolve) => {
          if (lost) resolve(fallback);
          else pending.set(id, { runId, kind: 'call', size, resolve });
        });
      const link = createWorkerRun(runId, {
        call(calls) {
          const failed = (error: ErrorInfo) => calls.map((): ToolResult => ({ ok: false, error }));
          if (lost) return Promise.resolve(failed(lost));
          try {
            structuredClone(calls);
          } catch {
            return Promise.resolve(failed(notCloneable));
          }
          return request<ToolResult[]>(
            (id) => ({ t: 'call', id, runId, calls: [...calls] }),
            (resolve) => ({ runId, kind: 'call', size: calls.length, resolve }),
            failed(lost ?? notCloneable),
          );
        },
        async decide(approvalId, decision) {
          // Two answers: whether the decision was taken, then (if it was) the resumed call's result.
          const result = nextId++;
          const gone = (error: ErrorInfo) => [{ ok: false, error } as ToolResult];
          const resumed = results(result, 1, gone(lost ?? workerLost('terminated')));
          const answer = await ask<WireDecided>(
            (id) => ({ t: 'decide', id, result, runId, approvalId, decision }),
            // Nothing was decided: the approval went with the Worker that held it.
            (error) => ({ taken: false, reason: 'unknown-approval', error }),
          );
          if (!answer.taken) {
            pending.delete(result);
            return answer;
          }
          return { ...answer, result: resumed.then(([only]) => only!) };
        },
        cancel: (toolCallId, reason) =>
          ask(
            (id) => ({ t: 'cancel', id, runId, toolCallId, ...(reason ? { reason } : {}) }),
            () => false,
          ),
        callStatus: (toolCallId) =>
          ask<CallHandle | undefined>(
            (id) => ({ t: 'status', id, runId, toolCallId }),
            () => undefined,
          ),
        openCalls: () =>
          ask<CallHandle[]>(
            (id) => ({ t: 'open-calls', id, runId }),
            () => [],
          ),
        asks: () =>
          ask<OpenAsk[]>(
            (id) => ({ t: 'asks', id, runId }),
            () => [],
          ),
        pendingApprovals: () =>
          ask<OpenApproval[]>(
            (id) => ({ t: 'pending-approvals', id, runId }),
            () => [],
          ),
        answer: (askId, answer) =>
          ask<Answered>(
            (id) => ({ t: 'answer-ask', id, runId, askId, answer }),
            (error) => ({ taken: false, reason: 'unknown', error }),
          ),
        finish: (how, reason) =>
          request<void>(
            (id) => (how === 'abort' ? { t: 'abort', id, runId, reason } : { t: 'end', id, runId }),
            (resolve) => ({ runId, kind: 'void', resolve: () => resolve() }),
            undefined,
          ),
        forget: () => runs.delete(runId),
      });
      if (lost) link.lose(lost);
      else {
        runs.set(runId, link);
        post({ t: 'start', runId, options: crossing });
      }
      if (signal?.aborted) void link.run.abort('the run signal was already aborted');
      else
        signal?.addEventListener('abort', () => void link.run.abort('the run signal fired'), { once: true });
      return link.run;
    },
    terminate() {
      worker.terminate();
      lose(workerLost('terminated'));
    },
    get lost() {
      return lost;
    },
  };
}

const notCloneable: ErrorInfo = {
  kind: 'args-invalid',
  message: 'The arguments cannot be sent to the Worker: they must survive structuredClone (plain data only).',
  retryable: false,
};

/** Calls `onLost` once the Worker's lock is free, which happens only when the Worker is gone. */
function watchLock(name: string, signal: AbortSignal, onLost: () => void): void {
  navigator.locks
    .request(name, { signal }, () => onLost())
    .catch(() => {
      // Aborted because the page already knows the Worker is gone.
    });
}
