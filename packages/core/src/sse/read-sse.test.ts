import { describe, expect, it } from 'vitest';
import { parseSse, readSse, type SseEvent } from './read-sse.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function readAll(chunks: Uint8Array[], onRetry?: (ms: number) => void): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(streamOf(chunks), onRetry ? { onRetry } : {})) events.push(event);
  return events;
}

/** The stream cut at every byte: no boundary may change what is read. */
const byteByByte = (text: string) => Array.from(utf8(text), (byte) => Uint8Array.of(byte));

describe('reading server-sent events by the WHATWG rules', () => {
  it('ends lines at CRLF, CR and LF alike, mixed in one stream', () => {
    expect(parseSse('data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
      { event: 'message', data: 'c' },
      { event: 'message', data: 'd' },
    ]);
  });

  it('skips comments, heartbeats included, without ending the event they sit in', () => {
    expect(parseSse(': keep-alive\n\ndata: a\n: between\ndata: b\n\n:\n\n')).toEqual([
      { event: 'message', data: 'a\nb' },
    ]);
  });

  it('joins multi-line data with LF, keeps an empty data line, and drops one space after the colon only', () => {
    expect(parseSse('data: one\ndata:\ndata:  two\ndata:three\n\ndata\n\n')).toEqual([
      { event: 'message', data: 'one\n\n two\nthree' },
      { event: 'message', data: '' },
    ]);
  });

  it('names an event by its event field, and calls one without a name or with an empty one message', () => {
    expect(parseSse('event: tool.progress\ndata: 1\n\nevent:\ndata: 2\n\ndata: 3\n\n')).toEqual([
      { event: 'tool.progress', data: '1' },
      { event: 'message', data: '2' },
      { event: 'message', data: '3' },
    ]);
  });

  it('carries the last event ID to later events until an id field changes it, and an empty id clears it', () => {
    expect(
      parseSse('id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\nid\ndata: d\n\nid: 3\ndata: e\n\n'),
    ).toEqual([
      { id: '1', event: 'message', data: 'a' },
      { id: '1', event: 'message', data: 'b' },
      { id: '2', event: 'message', data: 'c' },
      { event: 'message', data: 'd' },
      { id: '3', event: 'message', data: 'e' },
    ]);
  });

  it('ignores an id field that holds a NUL, keeping the last event ID it had', () => {
    expect(parseSse('id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n')).toEqual([
      { id: '1', event: 'message', data: 'a' },
      { id: '1', event: 'message', data: 'b' },
    ]);
  });

  it('dispatches nothing for a block with an id and no data', () => {
    expect(parseSse('id: 7\n\nevent: ping\n\n')).toEqual([]);
  });

  it('does not carry an id from a block without data into the next event, a gap of eventsource-parser 3', () => {
    // The spec would give the next event id 7; eventsource-parser reports such ids from 4.1 on
    // (`onId`), which declares Node 22.12. This pins the gap so an upgrade shows as a change here.
    expect(parseSse('id: 7\n\ndata: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('reports retry as a reconnection delay, ignoring one that is not all digits, and dispatches nothing for it', () => {
    const delays: number[] = [];
    const events = parseSse('retry: 1500\n\nretry: soon\nretry: -1\ndata: x\n\nretry: 20\n\n', {
      onRetry: (ms) => delays.push(ms),
    });
    expect(events).toEqual([{ event: 'message', data: 'x' }]);
    expect(delays).toEqual([1500, 20]);
  });

  it('ignores unknown fields and a field name that only starts like a known one', () => {
    expect(parseSse('foo: bar\ndatum: no\nevents: no\ndata: yes\n\n')).toEqual([
      { event: 'message', data: 'yes' },
    ]);
  });

  it('drops one leading byte order mark, but not a second one, nor one later in the stream', async () => {
    const bom = '\uFEFF';
    expect(parseSse(`${bom}data: a\n\n`)).toEqual([{ event: 'message', data: 'a' }]);
    expect(await readAll([Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf), utf8('data: a\n\n')])).toEqual([
      { event: 'message', data: 'a' },
    ]);
    // A second BOM makes the first line's field name "\uFEFFdata", which is no field.
    expect(await readAll([utf8(`${bom}${bom}data: a\n\ndata: b\n\n`)])).toEqual([
      { event: 'message', data: 'b' },
    ]);
    expect(parseSse(`data: a\n\n${bom}data: b\n\n`)).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('keeps a U+FEFF inside an event when a chunk starts with it', async () => {
    const bom = '\uFEFF';
    expect(await readAll([utf8('data: a'), utf8(`${bom}b\n\n`)])).toEqual([
      { event: 'message', data: `a${bom}b` },
    ]);
    expect(await readAll([utf8('data: a\n\n'), utf8(`${bom}data: b\n\n`)])).toEqual([
      { event: 'message', data: 'a' },
    ]);
  });

  it('drops an event the stream ends in the middle of', async () => {
    expect(await readAll([utf8('data: a\n\ndata: cut')])).toEqual([{ event: 'message', data: 'a' }]);
    expect(await readAll([utf8('data: a\n\ndata: no blank line\n')])).toEqual([
      { event: 'message', data: 'a' },
    ]);
  });

  it('takes a CR that ends the stream as a line end, so the event before it is whole', async () => {
    expect(await readAll([utf8('data: a\r\r')])).toEqual([{ event: 'message', data: 'a' }]);
    expect(parseSse('data: a\r\r')).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('reads the same events however the stream is cut: every byte a chunk of its own, CRLF and multi-byte characters split', async () => {
    const text =
      ': hi\r\nid: 1\r\nevent: a\r\ndata: {"k":"é🙂"}\r\n\r\ndata: two\rdata: lines\r\rretry: 5\n\nid: 2\ndata: z\n\n';
    const expected = [
      { id: '1', event: 'a', data: '{"k":"é🙂"}' },
      { id: '1', event: 'message', data: 'two\nlines' },
      { id: '2', event: 'message', data: 'z' },
    ];
    const delays: number[] = [];
    expect(await readAll(byteByByte(text), (ms) => delays.push(ms))).toEqual(expected);
    expect(delays).toEqual([5]);
    expect(await readAll([utf8(text)])).toEqual(expected);
  });
});

describe('readSse and the body it reads', () => {
  it('cancels the body when the loop leaves early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8('data: a\n\ndata: b\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readSse(body)) {
      expect(event.data).toBe('a');
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('leaves the body open and unlocked when the loop leaves early with preventCancel', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8('data: a\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const _ of readSse(body, { preventCancel: true })) break;
    expect(cancelled).toBe(false);
    expect(body.locked).toBe(false);
  });
});
