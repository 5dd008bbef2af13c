// Reads a run's event stream (SSE) from a Worker under wrangler dev: enough of SSE for the
// door's own messages (`id`, `event`, one `data` line each; comments are keep-alives). Its own
// parser, since @toolctx/edge's entry (and so its `readSse`) loads only in workerd.
import type { ToolEvent } from '@toolctx/core';

/** The messages of an SSE stream as `{ event, data }`, until it ends or is cut. */
export async function* sseMessages(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string | undefined; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const data = lines
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart());
        if (data.length === 0) continue;
        const event = lines
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim();
        yield { event, data: data.join('\n') };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The events of `response` until `stop` says so (then the body is cancelled, as a client hanging
 * up does) or the stream ends; stops waiting after `timeoutMs`.
 */
export async function eventsUntil(
  response: Response,
  stop: (events: ToolEvent[]) => boolean = () => false,
  timeoutMs = 30_000,
): Promise<ToolEvent[]> {
  if (!response.ok) throw new Error(`the event stream answered ${response.status}: ${await response.text()}`);
  // The body goes through a pipe this reader can cut when the time is up.
  const cut = new AbortController();
  const timer = setTimeout(() => cut.abort(), timeoutMs);
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void response.body!.pipeTo(writable, { signal: cut.signal }).catch(() => {});
  const events: ToolEvent[] = [];
  try {
    for await (const message of sseMessages(readable)) {
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
