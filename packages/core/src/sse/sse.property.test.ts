import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSse, type SseMessage } from './encode-sse.js';
import { parseSse, readSse, type SseEvent } from './read-sse.js';

// Characters that have a meaning in the format, beside ordinary text of any script.
const tricky = fc.constantFrom('\r', '\n', '\r\n', ':', ' ', '\uFEFF', '\0', 'data:', 'id:', 'é', '🙂');
const char = fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));
const text = fc.string({ unit: char, maxLength: 12 });
const oneLine = fc.string({ unit: char.filter((c) => !/[\r\n]/.test(c)), maxLength: 8 });

// An id without data is left out: eventsource-parser 3 does not report it (see read-sse.ts).
const message: fc.Arbitrary<SseMessage> = fc
  .record(
    {
      id: oneLine.map((id) => id.replaceAll('\0', '')),
      event: oneLine,
      data: text,
      retry: fc.nat({ max: 100_000 }),
    },
    { requiredKeys: [] },
  )
  .map((m) => (m.data === undefined ? (({ id: _, ...rest }) => rest)(m) : m));

/** What a WHATWG reader makes of `messages`: their events, and the retry delays asked for. */
function expected(messages: SseMessage[]): { events: SseEvent[]; delays: number[] } {
  let lastEventId = '';
  const events: SseEvent[] = [];
  for (const m of messages) {
    if (m.id !== undefined) lastEventId = m.id;
    if (m.data === undefined) continue;
    const event = { event: m.event || 'message', data: m.data.replace(/\r\n?/g, '\n') };
    events.push(lastEventId === '' ? event : { id: lastEventId, ...event });
  }
  return { events, delays: messages.flatMap((m) => (m.retry === undefined ? [] : [m.retry])) };
}

/** `bytes` cut at the given points (any byte, inside a character or a CRLF too), as a stream. */
function cutStream(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks = [0, ...points].map((start, i) => bytes.slice(start, [...points, bytes.length][i]));
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('encodeSse and the reader, round trip', () => {
  it('reads back what was written, with the last event ID carried and line breaks as LF', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const delays: number[] = [];
        const events = parseSse(messages.map(encodeSse).join(''), { onRetry: (ms) => delays.push(ms) });
        expect({ events, delays }).toEqual(expected(messages));
      }),
      { numRuns: 500 },
    );
  });

  it('reads back the same from a byte stream cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (messages, cuts) => {
          const delays: number[] = [];
          const events: SseEvent[] = [];
          const bytes = new TextEncoder().encode(messages.map(encodeSse).join(''));
          for await (const event of readSse(cutStream(bytes, cuts), { onRetry: (ms) => delays.push(ms) }))
            events.push(event);
          expect({ events, delays }).toEqual(expected(messages));
        },
      ),
      { numRuns: 300 },
    );
  });
});
