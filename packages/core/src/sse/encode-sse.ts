/**
 * One server-sent events message as a writer gives it. Every field is optional: a message with
 * only `id` moves the reader's last event ID, one with only `retry` sets its reconnection delay,
 * and only a message with `data` reaches the reader as an event.
 *
 * @example
 * ```ts
 * import { encodeSse, type SseMessage } from '@toolctx/core/sse';
 * const message: SseMessage = { id: '1', event: 'run.started', data: '{}' };
 * encodeSse(message); // 'id: 1\nevent: run.started\ndata: {}\n\n'
 * ```
 */
export interface SseMessage {
  /** The `id:` field; a reader sends the last one back as `Last-Event-ID` to resume. One line, no NUL. */
  id?: string;
  /** The `event:` field; a reader takes absent or empty as `message`. One line. */
  event?: string;
  /** The `data:` field; text of any kind, its line breaks become one `data:` line each. */
  data?: string;
  /** The `retry:` field: how many milliseconds the reader waits before reconnecting. */
  retry?: number;
}

/**
 * The headers of an SSE response: no caching, no proxy buffering.
 *
 * @example
 * ```ts
 * import { sseHeaders } from '@toolctx/core/sse';
 * const response = new Response(new ReadableStream(), { headers: sseHeaders });
 * ```
 */
export const sseHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

/**
 * Encodes one SSE message as text. Line breaks (CRLF, CR, LF) in `data` become several `data:`
 * lines, which a reader joins with LF, so any text (JSON included) survives. A line break in `id`
 * or `event`, a NUL in `id` (which a reader ignores) or a `retry` that is not a whole number of
 * milliseconds throws a `TypeError`, since each would forge or lose a field.
 *
 * @example
 * ```ts
 * import { encodeSse } from '@toolctx/core/sse';
 * encodeSse({ id: '3', event: 'tool.progress', data: '{"n":1}' });
 * // 'id: 3\nevent: tool.progress\ndata: {"n":1}\n\n'
 * ```
 */
export function encodeSse(message: SseMessage): string {
  let text = '';
  if (message.id !== undefined) {
    if (message.id.includes('\0')) throw new TypeError('An SSE id cannot hold a NUL character.');
    text += `id: ${singleLine(message.id)}\n`;
  }
  if (message.event !== undefined) text += `event: ${singleLine(message.event)}\n`;
  if (message.retry !== undefined) {
    if (!Number.isSafeInteger(message.retry) || message.retry < 0)
      throw new TypeError(`An SSE retry is a whole number of milliseconds, not ${message.retry}.`);
    text += `retry: ${message.retry}\n`;
  }
  if (message.data !== undefined)
    for (const line of message.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

const encoder = new TextEncoder();

/**
 * {@link encodeSse} as UTF-8 bytes, ready to enqueue on a response stream.
 *
 * @example
 * ```ts
 * import { encodeSseBytes } from '@toolctx/core/sse';
 * const body = new ReadableStream<Uint8Array>({
 *   start(controller) {
 *     controller.enqueue(encodeSseBytes({ event: 'result', data: JSON.stringify({ ok: true }) }));
 *     controller.close();
 *   },
 * });
 * ```
 */
export function encodeSseBytes(message: SseMessage): Uint8Array {
  return encoder.encode(encodeSse(message));
}

/**
 * Whether `value` holds a line break, which an SSE `id` or `event` field cannot carry: a writer
 * that must not throw checks this first.
 *
 * @example
 * ```ts
 * import { encodeSse, hasLineBreak } from '@toolctx/core/sse';
 * const type = 'tool\nprogress';
 * encodeSse(hasLineBreak(type) ? { data: '{}' } : { event: type, data: '{}' });
 * ```
 */
export function hasLineBreak(value: string): boolean {
  return /[\r\n]/.test(value);
}

function singleLine(value: string): string {
  if (hasLineBreak(value)) throw new TypeError('An SSE id or event name cannot hold a line break.');
  return value;
}
