import type { SseMessage } from './encode.js';

/**
 * Reads an SSE byte stream message by message, as the WHATWG EventSource parser does: fields
 * `id`, `event`, `data`; comments (`:`) and `retry` are skipped; a message without data is not
 * dispatched. Stops when the stream ends.
 *
 * @example
 * ```ts
 * import { readSse } from '@toolctx/edge';
 * const headers = { authorization: 'Bearer …' };
 * const response = await fetch('https://tools.example.com/runs/run_1/events', { headers });
 * for await (const message of readSse(response.body!)) {
 *   console.log(message.id, message.event, JSON.parse(message.data));
 * }
 * ```
 */
export async function* readSse(stream: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  let buffer = '';
  let pending: Partial<SseMessage> & { lines?: string[] } = {};
  try {
    while (true) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let match = /\r\n|\r|\n/.exec(buffer);
      while (match) {
        // A lone \r at the end may be the first half of \r\n: wait for more.
        if (match[0] === '\r' && match.index === buffer.length - 1 && !done) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (pending.lines) yield messageOf(pending);
          pending = {};
        } else field(pending, line);
        match = /\r\n|\r|\n/.exec(buffer);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Parses a whole SSE text at once; what {@link readSse} yields, as an array.
 *
 * @example
 * ```ts
 * import { parseSse } from '@toolctx/edge';
 * parseSse('id: 1\nevent: tool.started\ndata: {}\n\n'); // [{ id: '1', event: 'tool.started', data: '{}' }]
 * ```
 */
export function parseSse(text: string): SseMessage[] {
  const messages: SseMessage[] = [];
  let pending: Partial<SseMessage> & { lines?: string[] } = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (pending.lines) messages.push(messageOf(pending));
      pending = {};
    } else field(pending, line);
  }
  return messages;
}

function field(pending: Partial<SseMessage> & { lines?: string[] }, line: string): void {
  if (line.startsWith(':')) return;
  const colon = line.indexOf(':');
  const name = colon < 0 ? line : line.slice(0, colon);
  let value = colon < 0 ? '' : line.slice(colon + 1);
  if (value.startsWith(' ')) value = value.slice(1);
  if (name === 'data') {
    pending.lines ??= [];
    pending.lines.push(value);
  } else if (name === 'event') pending.event = value;
  else if (name === 'id' && !value.includes('\0')) pending.id = value;
}

function messageOf(pending: Partial<SseMessage> & { lines?: string[] }): SseMessage {
  const message: SseMessage = { data: (pending.lines ?? []).join('\n') };
  if (pending.id !== undefined) message.id = pending.id;
  if (pending.event !== undefined) message.event = pending.event;
  return message;
}
