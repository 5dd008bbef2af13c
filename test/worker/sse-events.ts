// Reads a run's event stream (SSE) from a Worker under wrangler dev with the SSE reader the
// door's clients use (@toolctx/core/sse), which loads in Node as it does in workerd.
import type { ToolEvent } from '@toolctx/core';
import { readSse } from '@toolctx/core/sse';
import { budget } from '../slowdown.js';

/**
 * The events of `response` until `stop` says so (then the body is cancelled, as a client hanging
 * up does) or the stream ends; stops waiting after `timeoutMs`, scaled to the machine.
 */
export async function eventsUntil(
  response: Response,
  stop: (events: ToolEvent[]) => boolean = () => false,
  timeoutMs = 30_000,
): Promise<ToolEvent[]> {
  if (!response.ok) throw new Error(`the event stream answered ${response.status}: ${await response.text()}`);
  // The body goes through a pipe this reader can cut when the time is up.
  const cut = new AbortController();
  const timer = setTimeout(() => cut.abort(), budget(timeoutMs));
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void response.body!.pipeTo(writable, { signal: cut.signal }).catch(() => {});
  const events: ToolEvent[] = [];
  try {
    for await (const message of readSse(readable)) {
      if (message.event === 'result') continue;
      events.push(JSON.parse(message.data) as ToolEvent);
      if (stop(events)) break;
    }
  } catch (error) {
    if (!cut.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    cut.abort();
  }
  return events;
}
