import type { RunEvents, ToolEvent } from '@toolctx/core';

/** Where a proxy of a run (a Worker run) publishes the events it receives, as core's `RunEvents`. */
export interface EventHub {
  readonly events: RunEvents;
  push(event: ToolEvent): void;
  /** Ends iterators once they have delivered what they buffered. */
  close(): void;
}

/** Makes an event hub; work per event is constant. */
export function createEventHub(): EventHub {
  const listeners = new Set<(event: ToolEvent) => void>();
  const wakers = new Set<() => void>();
  let closed = false;
  const events: RunEvents = {
    subscribe(listener) {
      const own = (event: ToolEvent) => listener(event);
      listeners.add(own);
      return () => listeners.delete(own);
    },
    async *[Symbol.asyncIterator]() {
      const buffer: ToolEvent[] = [];
      let wake: (() => void) | undefined;
      const stop = events.subscribe((event) => {
        buffer.push(event);
        wake?.();
      });
      try {
        while (true) {
          const next = buffer.shift();
          if (next) {
            yield next;
            continue;
          }
          if (closed) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
            wakers.add(resolve);
          });
          wakers.delete(wake!);
          wake = undefined;
        }
      } finally {
        stop();
      }
    },
  };
  return {
    events,
    push(event) {
      if (closed) return;
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          listeners.delete(listener); // a failing listener is detached, as core does with sinks
        }
      }
    },
    close() {
      closed = true;
      for (const wake of wakers) wake();
      wakers.clear();
    },
  };
}
