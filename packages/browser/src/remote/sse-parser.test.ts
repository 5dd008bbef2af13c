import { describe, expect, it } from 'vitest';
import { parseSse, type SseMessage } from './sse-parser.js';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function parseAll(chunks: string[]): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of parseSse(streamOf(chunks))) messages.push(message);
  return messages;
}

describe('parseSse', () => {
  it('reads ids, event names and multi-line data, skipping comments', async () => {
    expect(await parseAll([': hi\n\nid: 1\ndata: {"a":\ndata: 1}\n\nevent: ping\ndata:x\n\n'])).toEqual([
      { id: '1', event: 'message', data: '{"a":\n1}' },
      { id: '1', event: 'ping', data: 'x' },
    ]);
  });

  it('takes CRLF, CR and LF line ends, even split across chunks', async () => {
    expect(await parseAll(['id: 7\r', '\ndata: a\r\r', 'data: b\n', '\n'])).toEqual([
      { id: '7', event: 'message', data: 'a' },
      { id: '7', event: 'message', data: 'b' },
    ]);
  });

  it('drops an event cut off by the end of the stream, and a multi-byte character split across chunks survives', async () => {
    const bytes = new TextEncoder().encode('data: 🙂\n\ndata: cut');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    const messages: SseMessage[] = [];
    for await (const message of parseSse(stream)) messages.push(message);
    expect(messages).toEqual([{ event: 'message', data: '🙂' }]);
  });
});
