import type { CallHandle, RunEvents, ToolEvent } from '@toolctx/core';

/**
 * What `attachStatus` can watch: a local `Run` or a Worker run, its `events`, a remote run
 * stream from `connectRun` (each of these a `RunEvents`), or any async iterable of events, such
 * as a replayed recording. Of a `RunEvents` only `subscribe` is used.
 */
export type StatusSource =
  | { readonly events: Pick<RunEvents, 'subscribe'> }
  | Pick<RunEvents, 'subscribe'>
  | AsyncIterable<ToolEvent>;

/**
 * Feeds each event of `source` to `deliver`; returns the function that stops listening. A run
 * (one with `openCalls()`: a local `Run`, a Web Worker or remote run) also tells, once, the calls
 * it already had open when the widget attached (a remount), as the events that put each where it
 * is: started when it started, waiting for its approval or its asks. A call its events named
 * first is left to them; a remote run's replay, which comes later, makes them again.
 */
export function listen(source: StatusSource, deliver: (event: ToolEvent) => void): () => void {
  const subscribable = 'events' in source ? source.events : source;
  const open = (source as { openCalls?: () => CallHandle[] | Promise<CallHandle[]> }).openCalls;
  // The calls events named, kept only until the open calls are told: after that, an event costs
  // the listener nothing but the hand-over (a busy run makes thousands a second).
  let seen: Set<string | undefined> | undefined = typeof open === 'function' ? new Set() : undefined;
  const listener = (event: ToolEvent) => {
    seen?.add(event.callId);
    deliver(event);
  };
  if (typeof (subscribable as Pick<RunEvents, 'subscribe'>).subscribe === 'function') {
    const stop = (subscribable as Pick<RunEvents, 'subscribe'>).subscribe(listener);
    let stopped = false;
    if (typeof open === 'function')
      Promise.resolve(open.call(source))
        .then((handles) => {
          for (const call of handles) if (!stopped && !seen!.has(call.toolCallId)) replay(call, deliver);
        })
        .catch(() => {})
        .finally(() => {
          seen = undefined;
        });
    return () => {
      stopped = true;
      stop();
    };
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

/** The events that put an open call where its handle says it is. */
function replay(call: CallHandle, deliver: (event: ToolEvent) => void): void {
  const { toolCallId: callId, tool, parentId } = call;
  const event = (type: string, ts: number, data: object) =>
    deliver({
      type,
      seq: 0,
      ts,
      callId,
      ...(parentId ? { parentId } : {}),
      data: { tool, ...data },
    } as ToolEvent);
  event('tool.started', call.startedAt, {});
  if (call.approvalId) event('tool.pending', call.updatedAt, { reason: 'approval', id: call.approvalId });
  for (const ask of call.asks ?? [])
    event('ask.requested', ask.askedAt, {
      askId: ask.askId,
      message: ask.message,
      schema: ask.schema,
      expiresAt: ask.expiresAt,
    });
}
