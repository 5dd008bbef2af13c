// Reads a run's event stream (GET /runs/:id/events) in the background and says when an event
// arrived, by the test's own clock.
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
      // Each event message of this door is one `data:` line holding the whole ToolEvent.
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body!.getReader();
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) {
          if (!line.startsWith('data: ')) continue;
          const event = JSON.parse(line.slice(6)) as { type: string; callId?: string; data?: unknown };
          seen.push({ ...event, at: performance.now() });
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    next(match, timeoutMs = 10_000) {
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
            new Error(`no matching event within ${timeoutMs} ms; saw ${seen.map((e) => e.type).join(', ')}`),
          );
        }, timeoutMs);
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
