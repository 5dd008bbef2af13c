// Reads a run's event stream (GET /runs/:id/events) in the background (with @toolctx/core/sse)
// and says when an event arrived, by the test's own clock.

import { readSse } from '@toolctx/core/sse';
import { budget } from '../slowdown.js';
import type { ExampleWorker } from './example-worker.js';

/** One event of the run, with when it arrived here. */
export interface ArrivedEvent {
  type: string;
  callId?: string;
  data?: unknown;
  at: number;
}

/** A run's events as they arrive; `next` waits for the first one that matches. */
export interface RunEvents {
  next(match: (event: ArrivedEvent) => boolean, timeoutMs?: number): Promise<ArrivedEvent>;
  close(): void;
}

export async function watchRun(worker: ExampleWorker, runId: string): Promise<RunEvents> {
  const controller = new AbortController();
  const response = await worker.send(`/runs/${runId}/events`, { signal: controller.signal });
  if (response.status !== 200) throw new Error(`GET /runs/${runId}/events answered ${response.status}`);
  const seen: ArrivedEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    try {
      for await (const message of readSse(response.body!)) {
        const event = JSON.parse(message.data) as { type: string; callId?: string; data?: unknown };
        seen.push({ ...event, at: performance.now() });
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    next(match, timeoutMs = 10_000) {
      const limit = budget(timeoutMs);
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = seen.find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `no matching event within ${limit} ms (${timeoutMs} ms scaled); saw ${seen.map((e) => e.type).join(', ')}`,
            ),
          );
        }, limit);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

/**
 * Sends `request` with a signal, waits until `ready` shows on the run's event stream and the
 * response's headers have arrived (so the clock measures the hang-up, not a slow start), hangs up,
 * and answers how call `callId` ended and how long after the hang-up.
 */
export async function hangUpDuring(
  worker: ExampleWorker,
  runId: string,
  callId: string,
  ready: (event: ArrivedEvent) => boolean,
  request: (signal: AbortSignal) => Promise<Response>,
): Promise<{ end: ArrivedEvent; latencyMs: number }> {
  const events = await watchRun(worker, runId);
  const client = new AbortController();
  const headers = request(client.signal);
  const answer = headers.then((response) => response.text()).catch(() => 'aborted');
  await events.next(ready);
  await headers;
  const hungUpAt = performance.now();
  client.abort();
  await answer;
  const end = await events.next(
    (e) => (e.type === 'tool.failed' || e.type === 'tool.finished') && e.callId === callId,
    12_000,
  );
  events.close();
  return { end, latencyMs: Math.round(end.at - hungUpAt) };
}
