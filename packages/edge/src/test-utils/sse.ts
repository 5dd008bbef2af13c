// Test helpers: read what the door streams with the package's own SSE parser.
import type { ToolEvent } from '@toolctx/core';
import { readSse, type SseMessage } from '../sse/index.js';

/** Every message of a stream that ends by itself. */
export async function allMessages(response: Response): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSse(response.body!)) messages.push(message);
  return messages;
}

/**
 * Messages until `stop` says so; then the body is cancelled (what a client hanging up does),
 * unless `cancel` is false.
 */
export async function messagesUntil(
  response: Response,
  stop: (message: SseMessage, all: SseMessage[]) => boolean,
  { cancel = true } = {},
): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  const iterator = readSse(response.body!);
  for await (const message of iterator) {
    messages.push(message);
    if (stop(message, messages)) break;
  }
  if (cancel) await response.body!.cancel().catch(() => {});
  return messages;
}

/** The ToolEvents among SSE messages (every message but `result`). */
export function eventsOf(messages: SseMessage[]): ToolEvent[] {
  return messages.filter((m) => m.event !== 'result').map((m) => JSON.parse(m.data) as ToolEvent);
}

/** Asserts seqs run 1 more each time, from `first`: no gap, no duplicate. */
export function seqs(events: ToolEvent[]): number[] {
  return events.map((event) => event.seq);
}
