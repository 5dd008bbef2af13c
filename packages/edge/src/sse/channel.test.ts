import { describe, expect, it, vi } from 'vitest';
import { createChannel, jsonHeartbeat } from './channel.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('createChannel', () => {
  it('passes bytes through in order and ends on close, without calling onGone', async () => {
    const channel = createChannel(0);
    let gone = 0;
    channel.onGone(() => gone++);
    channel.write(bytes('a'));
    channel.write(bytes('b'));
    channel.close();
    expect(await new Response(channel.readable).text()).toBe('ab');
    expect(gone).toBe(0);
  });

  it('tells the producer once when the reader cancels, at the latest on the next write', async () => {
    const channel = createChannel(0);
    let gone = 0;
    channel.onGone(() => gone++);
    const reader = channel.readable.getReader();
    channel.write(bytes('first'));
    await reader.read();
    await reader.cancel();
    channel.write(bytes('second'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    channel.write(bytes('third'));
    expect(gone).toBe(1);
  });

  it('writes its heartbeat every 500 ms by default: an SSE comment line, or a newline in JSON', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // Each channel made in its turn: the fake clock moves for every channel made before.
      for (const [make, heartbeat] of [
        [() => createChannel(), ': keep-alive\n\n'],
        [() => createChannel(undefined, jsonHeartbeat), '\n'],
      ] as const) {
        const channel = make();
        const reader = channel.readable.getReader();
        let read = '';
        const next = reader.read().then(({ value }) => {
          read = new TextDecoder().decode(value);
        });
        vi.advanceTimersByTime(499);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(read).toBe('');
        vi.advanceTimersByTime(1);
        await next;
        expect(read).toBe(heartbeat);
        channel.close();
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('finds a reader that left through its heartbeat, with nothing else to write', async () => {
    const channel = createChannel(5);
    const reader = channel.readable.getReader();
    const gone = new Promise<string>((resolve) => channel.onGone(() => resolve('gone')));
    await reader.cancel();
    expect(await gone).toBe('gone');
  });
});
