import type { RunEvents, ToolEvent } from '@toolctx/core';
import { readSse } from '@toolctx/core/sse';
import { RemoteRunError } from './remote-run-error.js';
import { createRunCalls, type RemoteRunCalls } from './run-calls.js';

/** Options of `connectRun`. */
export interface ConnectRunOptions {
  /** Resume after this `seq` (what a previous reader saw last). */
  lastEventId?: number | string;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Ends the stream (the iteration finishes quietly), and stops `result` waiting. */
  signal?: AbortSignal;
  /** Sent with every request, such as `authorization`. */
  headers?: HeadersInit;
  /**
   * Reconnection: delays double from `minDelayMs` to `maxDelayMs`; gives up after `attempts` failures
   * in a row. Default: 250 ms, 5000 ms and 8 attempts.
   */
  retry?: { minDelayMs?: number; maxDelayMs?: number; attempts?: number };
}

/**
 * A remote run's events, each exactly once and in `seq` order, across reconnections: core's
 * `RunEvents`, so it is subscribed to or iterated like a local run's events. Each subscription
 * and each iteration reads the stream on a connection of its own, from `lastEventId`.
 */
export interface RemoteRunStream extends RunEvents {
  readonly runId: string;
}

/**
 * A remote run in the page: its events (a {@link RemoteRunStream}) and its verbs — calls, their
 * handles, cancel and approval — over the HTTP door's routes. `attachStatus` takes it as it is
 * and offers Cancel, Approve and Deny through it.
 */
export interface RemoteRun extends RemoteRunStream, RemoteRunCalls {}

/**
 * Connects the page to a run of the HTTP door. Its events (`GET {url}/runs/{runId}/events`) read
 * as core's `RunEvents` (subscribe, or iterate with `for await`), which `attachStatus` accepts. A
 * dropped connection is resumed with `Last-Event-ID`, with bounded backoff; duplicates are dropped
 * and a gap in `seq` makes it reconnect from the last event it delivered (a gap the server cannot
 * fill is then passed over, as is the start of a log trimmed to its newest events: `410
 * events-trimmed`). It ends after `run.finished` or when `signal` aborts; it throws a
 * `RemoteRunError` when the server refuses the stream. Its verbs call tools (`detached` ones go on
 * while the page is away), read a call's handle and cancel or decide it.
 *
 * After a reload, a new `connectRun` on the same `runId` shows the run as it is: its events replay
 * from the start of the log (so each call's line is in its true state, with its true start time),
 * `openCalls()` lists what is still running or waiting, and `result(toolCallId)` delivers a result
 * that arrived while the page was away (keep the ids of your calls, in `sessionStorage` say).
 *
 * @example
 * ```ts
 * import { connectRun } from '@toolctx/browser/remote';
 * import { attachStatus } from '@toolctx/browser/status';
 * declare const runId: string; // from POST /runs
 * declare const authorization: string;
 * const run = connectRun('https://tools.example.com', runId, { headers: { authorization } });
 * attachStatus(document.querySelector('#status')!, run); // Cancel, Approve and Deny included
 * // A call that goes on if the page reloads: keep its id to pick its result up afterwards.
 * sessionStorage.setItem('report-call', 'report_1');
 * const report = await run.call({ tool: 'build_report', args: {}, toolCallId: 'report_1', detached: true });
 * // After a reload, on a new connectRun for the same run: at once if it settled meanwhile.
 * const again = await run.result(sessionStorage.getItem('report-call')!);
 * for await (const event of run) if (event.type === 'tool.failed') console.warn(event.data);
 * ```
 */
export function connectRun(url: string, runId: string, options: ConnectRunOptions = {}): RemoteRun {
  const base = url.replace(/\/+$/, '');
  const endpoint = `${base}/runs/${encodeURIComponent(runId)}/events`;
  let seen = Number(options.lastEventId ?? 0) || 0;
  const onSeq = (seq: number) => {
    seen = Math.max(seen, seq);
  };
  const events = (after: number, stop: AbortSignal) => {
    const signal = options.signal ? AbortSignal.any([options.signal, stop]) : stop;
    return {
      [Symbol.asyncIterator]: () => read(endpoint, { ...options, lastEventId: after }, signal, onSeq),
    };
  };
  const stream: RemoteRun = {
    ...createRunCalls({
      base,
      runId,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      headers: options.headers,
      events,
      seen: () => seen,
    }),
    runId,
    subscribe(listener) {
      const events = stream[Symbol.asyncIterator]();
      let active = true;
      const stop = () => {
        if (!active) return;
        active = false;
        void events.return?.()?.catch(() => {});
      };
      void (async () => {
        try {
          while (active) {
            const step = await events.next();
            if (step.done || !active) return;
            listener(step.value);
          }
        } catch {
          // A refused stream, or a listener that throws, ends the subscription: a listener has no
          // error to take, and the RemoteRunError is what iterating the stream throws.
        } finally {
          stop();
        }
      })();
      return stop;
    },
    [Symbol.asyncIterator]() {
      // Stopping the iteration aborts a read in flight rather than waiting for the next event.
      const stop = new AbortController();
      const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
      const events = read(endpoint, options, signal, onSeq);
      return {
        next: () => events.next(),
        return: async () => {
          stop.abort();
          return events.return(undefined);
        },
      };
    },
  };
  return stream;
}

async function* read(
  endpoint: string,
  options: ConnectRunOptions,
  signal: AbortSignal,
  onSeq: (seq: number) => void,
): AsyncGenerator<ToolEvent> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const { minDelayMs = 250, maxDelayMs = 5000, attempts = 8 } = options.retry ?? {};
  let last = Number(options.lastEventId ?? 0) || 0;
  let failures = 0;
  let gapAfter: number | undefined; // the last seq from which a gap already made us reconnect
  while (!signal.aborted) {
    let gap = false;
    try {
      const headers = new Headers(options.headers);
      headers.set('accept', 'text/event-stream');
      if (last > 0) headers.set('last-event-id', String(last));
      const response = await doFetch(endpoint, { headers, signal, cache: 'no-store' });
      if (!response.ok || !response.body) {
        const oldest = response.status === 410 ? await keptFrom(response) : undefined;
        // The log no longer keeps what comes next: go on from what it keeps, as for any gap the
        // server cannot fill (the calls that started before it are in `openCalls()`).
        if (oldest !== undefined && oldest > last + 1) {
          last = oldest - 1;
          continue;
        }
        if (!response.bodyUsed) await response.body?.cancel();
        if (!retryable(response.status)) {
          throw new RemoteRunError('http-status', `The run's event stream answered ${response.status}.`, {
            status: response.status,
          });
        }
      } else {
        for await (const message of readSse(response.body)) {
          if (signal.aborted) return;
          const event = parse(message.data);
          if (!event) continue;
          const seq = typeof event.seq === 'number' ? event.seq : Number(message.id);
          if (!(seq > last)) continue; // seen already
          if (seq > last + 1 && gapAfter !== last) {
            gapAfter = last;
            gap = true;
            break;
          }
          last = seq;
          failures = 0;
          onSeq(seq);
          yield event;
          if (event.type === 'run.finished') return;
        }
      }
    } catch (error) {
      if (error instanceof RemoteRunError || signal.aborted) {
        if (signal.aborted) return;
        throw error;
      }
    }
    if (gap) continue;
    if (++failures >= attempts) {
      throw new RemoteRunError('unreachable', `The run's event stream dropped ${failures} times in a row.`);
    }
    await sleep(Math.min(maxDelayMs, minDelayMs * 2 ** (failures - 1)), signal);
  }
}

/** Where a `410 events-trimmed` says the run's log now starts, if it says so. */
async function keptFrom(response: Response): Promise<number | undefined> {
  const body = (await response.json().catch(() => undefined)) as
    | { kind?: string; details?: { oldestSeq?: unknown } }
    | undefined;
  const oldest = body?.details?.oldestSeq;
  return body?.kind === 'events-trimmed' && typeof oldest === 'number' ? oldest : undefined;
}

function parse(data: string): ToolEvent | undefined {
  try {
    const event = JSON.parse(data) as ToolEvent;
    return typeof event?.type === 'string' ? event : undefined;
  } catch {
    return undefined;
  }
}

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
