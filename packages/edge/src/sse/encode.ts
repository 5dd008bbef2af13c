/**
 * One Server-Sent Events message.
 *
 * @example
 * ```ts
 * import { encodeSse, type SseMessage } from '@toolctx/edge';
 * const message: SseMessage = { id: '1', event: 'run.started', data: '{}' };
 * encodeSse(message);
 * ```
 */
export interface SseMessage {
  /** The `id:` field; a reader sends the last one back as `Last-Event-ID` to resume. */
  id?: string;
  /** The `event:` field; absent means `message`. */
  event?: string;
  /** The `data:` field; several lines are joined with `\n`. */
  data: string;
}

/**
 * The headers of an SSE response: no caching, no proxy buffering.
 *
 * @example
 * ```ts
 * import { sseHeaders } from '@toolctx/edge';
 * const reply = (stream: ReadableStream<Uint8Array>) => new Response(stream, { headers: sseHeaders });
 * ```
 */
export const sseHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

const encoder = new TextEncoder();

/**
 * Encodes one SSE message. Line breaks inside `data` become several `data:` lines, so any text
 * (JSON included) survives; `id` and `event` must be single lines.
 *
 * @example
 * ```ts
 * import { encodeSse } from '@toolctx/edge';
 * encodeSse({ id: '3', event: 'tool.progress', data: '{"n":1}' });
 * // 'id: 3\nevent: tool.progress\ndata: {"n":1}\n\n'
 * ```
 */
export function encodeSse(message: SseMessage): string {
  let text = '';
  if (message.id !== undefined) text += `id: ${singleLine(message.id)}\n`;
  if (message.event !== undefined) text += `event: ${singleLine(message.event)}\n`;
  for (const line of message.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * {@link encodeSse} as UTF-8 bytes, ready to enqueue on a response stream.
 *
 * @example
 * ```ts
 * import { encodeSseBytes } from '@toolctx/edge';
 * const stream = new ReadableStream<Uint8Array>({
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

/** Whether `value` holds a line break, which an SSE `id` or `event` field cannot carry. */
export function hasLineBreak(value: string): boolean {
  return /[\r\n]/.test(value);
}

function singleLine(value: string): string {
  if (hasLineBreak(value)) throw new TypeError('An SSE id or event name cannot hold a line break.');
  return value;
}
