import { describe, expect, it } from 'vitest';
import { encodeSse, encodeSseBytes, parseSse, readSse } from './index.js';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('SSE encoding and parsing', () => {
  it('round-trips id, event and multi-line data', () => {
    const text = encodeSse({ id: '7', event: 'tool.progress', data: 'line one\nline two' });
    expect(text).toBe('id: 7\nevent: tool.progress\ndata: line one\ndata: line two\n\n');
    expect(parseSse(text)).toEqual([{ id: '7', event: 'tool.progress', data: 'line one\nline two' }]);
  });

  it('refuses a line break in an id or event name, which would forge fields', () => {
    expect(() => encodeSse({ id: '1\ndata: x', data: '' })).toThrow(/line break/);
    expect(() => encodeSse({ event: 'a\rb', data: '' })).toThrow(/line break/);
  });

  it('skips comments and retry, and does not dispatch a message without data', () => {
    expect(parseSse(': keep-alive\nretry: 10\n\nid: 3\n\ndata: x\n\n')).toEqual([{ data: 'x' }]);
  });

  it('reads messages split across chunks at any point, CRLF included', async () => {
    const bytes = new TextDecoder().decode(encodeSseBytes({ id: '1', event: 'a', data: '{"k":"é"}' }));
    const whole = `${bytes}id: 2\r\nevent: b\r\ndata: two\r\n\r\n`;
    const chunks = whole.split('').map((c) => c);
    const messages = [];
    for await (const message of readSse(streamOf(...chunks))) messages.push(message);
    expect(messages).toEqual([
      { id: '1', event: 'a', data: '{"k":"é"}' },
      { id: '2', event: 'b', data: 'two' },
    ]);
  });
});
