import { describe, expect, it, vi } from 'vitest';
import { memoryServer } from '../test-utils/server.js';

// Runs held in memory do not pile up: an ended run is forgotten after its retention window.
describe('createMemoryRunDirectory: retention', () => {
  it('keeps an ended run for retentionMs, then forgets it (404); a live run stays', async () => {
    const { send, startRun } = memoryServer({ retentionMs: 50 });
    const ended = await startRun();
    const live = await startRun();
    expect((await send(`/runs/${ended}`, { method: 'DELETE' })).status).toBe(200);
    // Within the window the ended run is still there to read back.
    const kept = await send(`/runs/${ended}/events`);
    expect(kept.status).toBe(200);
    await kept.text();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const forgotten = await send(`/runs/${ended}/events`);
    expect(forgotten.status).toBe(404);
    expect(await forgotten.json()).toMatchObject({ kind: 'not-found' });
    const stillLive = await send(`/runs/${live}/events`);
    expect(stillLive.status).toBe(200);
    await stillLive.body?.cancel();
  });

  it('by default keeps an ended run for a day (86 400 000 ms) and forgets it then', async () => {
    const { send, startRun } = memoryServer();
    const ended = await startRun();
    // The run's end schedules its forgetting: a fake clock from before the DELETE can run it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      expect((await send(`/runs/${ended}`, { method: 'DELETE' })).status).toBe(200);
      vi.advanceTimersByTime(86_400_000 - 1);
      const kept = await send(`/runs/${ended}/events`);
      expect(kept.status).toBe(200);
      await kept.text();
      vi.advanceTimersByTime(1);
      const forgotten = await send(`/runs/${ended}/events`);
      expect(forgotten.status).toBe(404);
      expect(await forgotten.json()).toMatchObject({ kind: 'not-found' });
    } finally {
      vi.useRealTimers();
    }
  });
});
