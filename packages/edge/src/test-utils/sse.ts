// Test helpers: read what the door streams with the SSE reader its clients use.
import type { ToolEvent } from '@toolctx/core';
import { readSse, type SseEvent } from '@toolctx/core/sse';

/** Every message of a stream that ends by itself. */
export async function allMessages(response: Response): Promise<SseEvent[]> {
  const messages: SseEvent[] = [];
  for await (const message of readSse(response.body!)) messages.push(message);
  return messages;
}

/**
 * Messages until `stop` says so; then the body is cancelled (what a client hanging up does),
 * unless `cancel` is false.
 */
export async function messagesUntil(
  response: Response,
  stop: (message: SseEvent, all: SseEvent[]) => boolean,
  { cancel = true } = {},
): Promise<SseEvent[]> {
  const messages: SseEvent[] = [];
  for await (const message of readSse(response.body!, { preventCancel: !cancel })) {
    messages.push(message);
    if (stop(message, messages)) break;
  }
  return messages;
}

/** The ToolEvents among SSE messages (every message but `result`). */
export function eventsOf(messages: SseEvent[]): ToolEvent[] {
  return messages.filter((m) => m.event !== 'result').map((m) => JSON.parse(m.data) as ToolEvent);
}

/** Asserts seqs run 1 more each time, from `first`: no gap, no duplicate. */
export function seqs(events: ToolEvent[]): number[] {
  return events.map((event) => event.seq);
}
