import { createParser } from 'eventsource-parser';

/**
 * One server-sent event as a reader gets it, with the values the WHATWG `EventSource` gives a
 * `MessageEvent`: `event` is `message` when the stream named none, and `id` is the stream's last
 * event ID, set by this event's `id:` field or by an earlier one's (absent while it is empty).
 *
 * @example
 * ```ts
 * import { parseSse, type SseEvent } from '@toolctx/core/sse';
 * const [first, second]: SseEvent[] = parseSse('id: 1\ndata: a\n\ndata: b\n\n');
 * // first: { id: '1', event: 'message', data: 'a' }; second: { id: '1', event: 'message', data: 'b' }
 * ```
 */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** Options of {@link readSse} and {@link parseSse}. */
export interface ReadSseOptions {
  /** Called with each `retry:` the stream sends: the reconnection delay it asks for, in milliseconds. */
  onRetry?: (ms: number) => void;
  /** As for `ReadableStream.values()`: leaving the loop early releases the body instead of cancelling it. */
  preventCancel?: boolean;
}

/**
 * Reads a `text/event-stream` body event by event as it arrives, with `eventsource-parser` (the
 * parser the AI SDK and the MCP SDK read with) and the WHATWG rules: UTF-8 with one leading BOM
 * dropped; lines end in CRLF, CR or LF, split across chunks anywhere; a blank line dispatches;
 * `:` starts a comment; a block without `data:` dispatches nothing; an event cut off by the end of
 * the stream is dropped. One gap: an `id:` in a block without `data:` does not move the last event
 * ID, since eventsource-parser 3 does not report it. Leaving the loop early cancels the body
 * unless `preventCancel` is set.
 *
 * @example
 * ```ts
 * import { readSse } from '@toolctx/core/sse';
 * const response = await fetch('https://tools.example.com/runs/run_1/events');
 * for await (const event of readSse(response.body!)) console.log(event.id, event.event, JSON.parse(event.data));
 * ```
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  options: ReadSseOptions = {},
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  // The leading BOM is dropped here, not by the decoder: workerd's streaming decoder also drops
  // one at the start of a later chunk, which would eat a U+FEFF inside an event.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const events: SseEvent[] = [];
  const parser = createSseParser(events, options.onRetry);
  let ended = false;
  let started = false;
  try {
    while (!ended) {
      const step = await reader.read();
      ended = step.done;
      let text = ended ? decoder.decode() : decoder.decode(step.value, { stream: true });
      if (!started && text !== '') {
        started = true;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      if (ended) parser.end(text);
      else parser.feed(text);
      for (const event of events.splice(0)) yield event;
    }
  } finally {
    if (ended || options.preventCancel) reader.releaseLock();
    else await reader.cancel().catch(() => {});
  }
}

/**
 * Parses a whole `text/event-stream` text at once, by the same rules as {@link readSse}: its
 * events as an array.
 *
 * @example
 * ```ts
 * import { parseSse } from '@toolctx/core/sse';
 * parseSse('id: 1\nevent: tool.started\ndata: {}\n\n'); // [{ id: '1', event: 'tool.started', data: '{}' }]
 * ```
 */
export function parseSse(text: string, options: Pick<ReadSseOptions, 'onRetry'> = {}): SseEvent[] {
  const events: SseEvent[] = [];
  createSseParser(events, options.onRetry).end(text.startsWith('\uFEFF') ? text.slice(1) : text);
  return events;
}

/** eventsource-parser, with what it leaves to its caller: the last event ID and the default type. */
function createSseParser(into: SseEvent[], onRetry: ((ms: number) => void) | undefined) {
  let lastEventId = '';
  // A CR that ends the text may be half of a CRLF, so the parser holds it back; at the end of the
  // stream it is a line end of its own, which an LF after it completes without adding a line.
  let endsInCr = false;
  const parser = createParser({
    onEvent({ id, event = 'message', data }) {
      if (id !== undefined) lastEventId = id;
      into.push(lastEventId === '' ? { event, data } : { id: lastEventId, event, data });
    },
    ...(onRetry ? { onRetry } : {}),
  });
  const feed = (text: string) => {
    if (text === '') return;
    endsInCr = text.endsWith('\r');
    parser.feed(text);
  };
  return {
    feed,
    end(text: string) {
      feed(text);
      if (endsInCr) parser.feed('\n');
    },
  };
}
