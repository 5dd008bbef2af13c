import type { CallRequest, ErrorInfo, StartRunOptions, ToolResult } from '@toolctx/core';
import {
  type Envelope,
  type FromWorker,
  isEnvelope,
  type ToWorker,
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
      case 'done': {
        const entry = pending.get(message.id);
        pending.delete(message.id);
        if (entry) runs.get(entry.runId)?.keepStats(message.stats);
        if (entry?.kind === 'call' && message.t === 'results') entry.resolve(message.results);
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
      const link = createWorkerRun(runId, {
        call(requests: readonly CallRequest[], cancelKeys: (number | undefined)[]) {
          const calls = requests.map(({ signal: _signal, ...call }, i) => ({
            ...call,
            cancel: cancelKeys[i],
          }));
          const failed = (error: ErrorInfo) => requests.map((): ToolResult => ({ ok: false, error }));
          if (lost) return Promise.resolve(failed(lost));
          try {
            structuredClone(calls);
          } catch {
            return Promise.resolve(failed(notCloneable));
          }
          return request<ToolResult[]>(
            (id) => ({ t: 'call', id, runId, calls }),
            (resolve) => ({ runId, kind: 'call', size: requests.length, resolve }),
            failed(lost ?? notCloneable),
          );
        },
        resume: async (approvalId, decision, cancel) => {
          const [result] = await request<ToolResult[]>(
            (id) => ({
              t: 'resume',
              id,
              runId,
              approvalId,
              decision,
              ...(cancel === undefined ? {} : { cancel }),
            }),
            (resolve) => ({ runId, kind: 'call', size: 1, resolve }),
            [{ ok: false, error: lost ?? workerLost('terminated') }],
          );
          return result!;
        },
        cancel: (key) => post({ t: 'cancel', key }),
        cancelPending: (toolCallId) => post({ t: 'cancel-pending', runId, toolCallId }),
        finish: (how, reason) =>
          request<void>(
            (id) => (how === 'abort' ? { t: 'abort', id, runId, reason } : { t: 'end', id, runId }),
            (resolve) => ({ runId, kind: 'void', resolve: () => resolve() }),
            undefined,
          ),
        forget: () => runs.delete(runId),
        nextCancelKey: () => nextId++,
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
