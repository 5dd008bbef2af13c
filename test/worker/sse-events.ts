// Reads a run's event stream (SSE) from a Worker under wrangler dev: enough of SSE for the
// door's own messages (`id`, `event`, one `data` line each; comments are keep-alives).
import type { ToolEvent } from '@toolctx/core';

/**
 * The events of `response` until `stop` says so (then the body is cancelled, as a client hanging
 * up does) or the stream ends; fails after `timeoutMs`.
 */
export async function eventsUntil(
  response: Response,
  stop: (events: ToolEvent[]) => boolean = () => false,
  timeoutMs = 30_000,
): Promise<ToolEvent[]> {
  if (!response.ok) throw new Error(`the event stream answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: ToolEvent[] = [];
  const timer = setTimeout(() => void reader.cancel(new Error('timed out')), timeoutMs);
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return events;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart());
        const kind = block.split('\n').find((line) => line.startsWith('event:'));
        if (data.length === 0 || kind?.slice(6).trim() === 'result') continue;
        events.push(JSON.parse(data.join('\n')) as ToolEvent);
        if (stop(events)) {
          await reader.cancel().catch(() => {});
          return events;
        }
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
