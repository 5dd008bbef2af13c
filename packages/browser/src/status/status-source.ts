import type { ToolEvent } from '@toolctx/core';

/** Anything that can be subscribed to for events: a run's `events`, or the run itself. */
export interface EventSubscribable {
  /** Calls `listener` with each event from now on; the function it answers stops that. */
  subscribe(listener: (event: ToolEvent) => void): () => void;
}

/**
 * What `attachStatus` can watch: a local `Run` (or a Worker run proxy), its `events`, a remote run
 * stream from `connectRun`, or any async iterable of events, such as a replayed recording.
 */
export type StatusSource =
  | { readonly events: EventSubscribable }
  | EventSubscribable
  | AsyncIterable<ToolEvent>;

/** Feeds each event of `source` to `listener`; returns the function that stops listening. */
export function listen(source: StatusSource, listener: (event: ToolEvent) => void): () => void {
  const subscribable = 'events' in source ? source.events : source;
  if (typeof (subscribable as EventSubscribable).subscribe === 'function') {
    return (subscribable as EventSubscribable).subscribe(listener);
  }
  if (typeof (source as AsyncIterable<ToolEvent>)[Symbol.asyncIterator] !== 'function') {
    throw new TypeError(
      'attachStatus needs a Run, a run stream from connectRun, or an async iterable of events.',
    );
  }
  const iterator = (source as AsyncIterable<ToolEvent>)[Symbol.asyncIterator]();
  let stopped = false;
  void (async () => {
    try {
      while (!stopped) {
        const step = await iterator.next();
        if (step.done || stopped) return;
        listener(step.value);
      }
    } catch {
      // A stream that fails ends the status; the lines keep what they last said.
    }
  })();
  return () => {
    stopped = true;
    void iterator.return?.()?.catch(() => {});
  };
}
