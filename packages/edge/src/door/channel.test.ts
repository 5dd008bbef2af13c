import { describe, expect, it, vi } from 'vitest';
import { createChannel, jsonHeartbeat } from './channel.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('createChannel', () => {
  it('passes bytes through in order and ends on close, without calling onGone', async () => {
    const channel = createChannel({ heartbeatMs: 0 });
    let gone = 0;
    channel.onGone(() => gone++);
    channel.write(bytes('a'));
    channel.write(bytes('b'));
    channel.close();
    expect(await new Response(channel.readable).text()).toBe('ab');
    expect(gone).toBe(0);
  });

  it('tells the producer once when the reader cancels, at the latest on the next write', async () => {
    const channel = createChannel({ heartbeatMs: 0 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    const reader = channel.readable.getReader();
    channel.write(bytes('first'));
    await reader.read();
    await reader.cancel();
    channel.write(bytes('second'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    channel.write(bytes('third'));
    expect(gone).toEqual(['gone']);
  });

  it('writes its heartbeat every 500 ms by default: an SSE comment line, or a newline in JSON', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // Each channel made in its turn: the fake clock moves for every channel made before.
      for (const [make, heartbeat] of [
        [() => createChannel(), ': keep-alive\n\n'],
        [() => createChannel({ heartbeat: jsonHeartbeat }), '\n'],
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
    const channel = createChannel({ heartbeatMs: 5 });
    const reader = channel.readable.getReader();
    const gone = new Promise<string>((resolve) => channel.onGone(resolve));
    await reader.cancel();
    expect(await gone).toBe('gone');
  });
});

describe('createChannel, a reader that falls behind', () => {
  const chunk = (size: number) => new Uint8Array(size).fill(0x61);
  const turn = () => new Promise((resolve) => setTimeout(resolve, 5));
  // Past the bound, a reader is dropped once it has taken nothing for 100 ms.
  const grace = () => new Promise((resolve) => setTimeout(resolve, 150));

  it('is dropped at the first write past maxQueuedBytes it has not taken: the producer hears "behind", the queue is let go and the stream ends', async () => {
    const channel = createChannel({ heartbeatMs: 0, maxQueuedBytes: 1000 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    const reader = channel.readable.getReader();
    // 400 + 400 + 400: the third write starts at 800, within the bound; the fourth finds 1,200.
    for (let i = 0; i < 3; i++) channel.write(chunk(400));
    await grace();
    expect(gone).toEqual([]);
    channel.write(chunk(400));
    expect(gone).toEqual(['behind']);
    channel.write(chunk(1)); // a no-op now
    // The piece in flight when it stopped reading, then the end (not an error: an error does not
    // cross Durable Object RPC); the 800 bytes queued behind it were let go.
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
    }
    expect(received).toBe(400);
    expect(gone).toEqual(['behind']);
  });

  it('is not dropped for a burst: one write of 3 MiB and another right after it reach a reader that reads', async () => {
    const channel = createChannel({ heartbeatMs: 0 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    channel.write(chunk(3 * 1024 * 1024));
    channel.write(bytes('done'));
    channel.close();
    const all = new Uint8Array(await new Response(channel.readable).arrayBuffer());
    expect(all.byteLength).toBe(3 * 1024 * 1024 + 4);
    expect(gone).toEqual([]);
  });

  it('is not dropped while it takes one write larger than the bound slowly: only what waits behind it counts', async () => {
    const channel = createChannel({ heartbeatMs: 0, maxQueuedBytes: 1000 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    const reader = channel.readable.getReader();
    channel.write(chunk(3000)); // in flight, unread for longer than the grace (a busy machine)
    await grace();
    channel.write(bytes('next'));
    await grace();
    channel.write(bytes('and next'));
    expect(gone).toEqual([]);
    expect((await reader.read()).value?.byteLength).toBe(3000);
    // Behind it, the bound holds as ever: a reader that stops again is dropped past it.
    for (let i = 0; i < 3; i++) channel.write(chunk(400));
    await grace();
    channel.write(chunk(400));
    expect(gone).toEqual(['behind']);
  });

  it('passes many queued writes through in order (coalesced into pieces of up to 64 KiB)', async () => {
    const channel = createChannel({ heartbeatMs: 0 });
    for (let i = 0; i < 40; i++) channel.write(new Uint8Array(4096).fill(i));
    channel.close();
    const all = new Uint8Array(await new Response(channel.readable).arrayBuffer());
    expect(all.byteLength).toBe(40 * 4096);
    expect(
      Array.from({ length: 40 }, (_, i) => all.subarray(i * 4096, (i + 1) * 4096).every((b) => b === i)),
    ).toEqual(Array.from({ length: 40 }, () => true));
  });

  it('counts a stalled reader from when it stopped: one that read first is dropped only once it lags by the bound', async () => {
    const channel = createChannel({ heartbeatMs: 0, maxQueuedBytes: 1000 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    const reader = channel.readable.getReader();
    for (let i = 0; i < 10; i++) {
      channel.write(chunk(900));
      expect((await reader.read()).value?.byteLength).toBe(900);
    }
    await turn();
    channel.write(chunk(900));
    channel.write(chunk(900));
    await grace();
    expect(gone).toEqual([]);
    channel.write(chunk(900));
    expect(gone).toEqual(['behind']);
  });

  it('is never dropped while it keeps up, whatever passes through (100× the bound), nor for one write larger than the bound', async () => {
    const channel = createChannel({ heartbeatMs: 1, maxQueuedBytes: 1000 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    const reader = channel.readable.getReader();
    let received = 0;
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += value.byteLength;
      }
    })();
    channel.write(chunk(5000));
    let written = 5000;
    await turn();
    for (let i = 0; i < 200; i++) {
      channel.write(chunk(500));
      written += 500;
      if (i % 2 === 1) await turn();
    }
    channel.close();
    await reading;
    expect(gone).toEqual([]);
    // Heartbeats came in between: at least every byte written arrived.
    expect(received).toBeGreaterThanOrEqual(written);
  });

  it('counts heartbeats: a heartbeat the reader has not taken is part of how far behind it is', async () => {
    // The SSE heartbeat is 14 bytes: with 10 more the reader is past a 20-byte bound.
    const channel = createChannel({ heartbeatMs: 2, maxQueuedBytes: 20 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    channel.readable.getReader();
    await grace();
    expect(gone).toEqual([]);
    channel.write(bytes('0123456789'));
    expect(gone).toEqual([]);
    channel.write(bytes('x'));
    expect(gone).toEqual(['behind']);
  });

  it('queues no heartbeat behind another write: a stalled reader of a quiet stream holds one heartbeat, not one per beat', async () => {
    const channel = createChannel({ heartbeatMs: 1, maxQueuedBytes: 20 });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    const reader = channel.readable.getReader();
    await new Promise((resolve) => setTimeout(resolve, 50));
    channel.write(bytes('x'));
    expect(gone).toEqual([]);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': keep-alive\n\n');
    channel.close();
  });

  it('starts with its backlog, pulled as the reader takes it: however long, it is not counted as the reader being behind', async () => {
    let pulled = 0;
    function* backlog() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield chunk(1000);
      }
    }
    const channel = createChannel({ heartbeatMs: 0, maxQueuedBytes: 1000, backlog: backlog() });
    const gone: string[] = [];
    channel.onGone((why) => gone.push(why));
    channel.write(bytes('live'));
    // Not pulled all at once: a piece (up to 64 KiB) at a time.
    expect(pulled).toBeLessThan(100);
    channel.close();
    const text = await new Response(channel.readable).text();
    expect(text.length).toBe(100_000 + 4);
    expect(text.slice(-5)).toBe('alive'); // the backlog's last 'a', then what was written
    expect(gone).toEqual([]);
  });
});
