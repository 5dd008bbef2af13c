import type { RunEvents, ToolEvent } from '@toolctx/core';

/**
 * What `attachStatus` can watch: a local `Run` or a Worker run, its `events`, a remote run
 * stream from `connectRun` (each of these a `RunEvents`), or any async iterable of events, such
 * as a replayed recording. Of a `RunEvents` only `subscribe` is used.
 */
export type StatusSource =
  | { readonly events: Pick<RunEvents, 'subscribe'> }
  | Pick<RunEvents, 'subscribe'>
  | AsyncIterable<ToolEvent>;

/** Feeds each event of `source` to `listener`; returns the function that stops listening. */
export function listen(source: StatusSource, listener: (event: ToolEvent) => void): () => void {
  const subscribable = 'events' in source ? source.events : source;
  if (typeof (subscribable as Pick<RunEvents, 'subscribe'>).subscribe === 'function') {
    return (subscribable as Pick<RunEvents, 'subscribe'>).subscribe(listener);
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
