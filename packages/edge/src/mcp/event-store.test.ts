import { env, runInDurableObject } from 'cloudflare:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createDurableEventStore, type McpEventStoreLimits } from './event-store.js';

// The MCP session's event store against real Durable Object storage (a fresh object per case).
const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;

function inStorage<T>(run: (storage: DurableObjectStorage) => Promise<T>): Promise<T> {
  return runInDurableObject(sessions.get(sessions.newUniqueId()), (_instance, state) => run(state.storage));
}

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});

async function replay(store: ReturnType<typeof createDurableEventStore>, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { streamId, sent };
}

describe('the MCP event store in Durable Object storage', () => {
  it("replays a stream's events after an id in order, once each, without the priming event or other streams", async () => {
    await inStorage(async (storage) => {
      const store = createDurableEventStore(storage);
      const priming = await store.storeEvent('post-1', {} as JSONRPCMessage);
      const first = await store.storeEvent('post-1', note(1));
      await store.storeEvent('_GET_stream', note(99));
      const second = await store.storeEvent('post-1', note(2));
      const answer: JSONRPCMessage = { jsonrpc: '2.0', id: 7, result: {} };
      const last = await store.storeEvent('post-1', answer);
      expect(await replay(store, priming)).toEqual({
        streamId: 'post-1',
        sent: [
          [first, note(1)],
          [second, note(2)],
          [last, answer],
        ],
      });
      expect((await replay(store, second)).sent).toEqual([[last, answer]]);
      expect((await replay(store, last)).sent).toEqual([]);
      expect(await store.streamOf(first)).toBe('post-1');
    });
  });

  it('keeps its events, and its ids going on, for a new store on the same storage, as after an eviction', async () => {
    await inStorage(async (storage) => {
      const before = createDurableEventStore(storage);
      const big: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { text: 'é'.repeat(200_000) } };
      const from = await before.storeEvent('s', note(1));
      const bigId = await before.storeEvent('s', big);
      const after = createDurableEventStore(storage);
      expect((await replay(after, from)).sent).toEqual([[bigId, big]]);
      const next = await after.storeEvent('s', note(2));
      expect(Number(next)).toBe(Number(bigId) + 1);
    });
  });

  it('refuses an id it does not keep: unknown, malformed, or from another session', async () => {
    const elsewhere = await inStorage(async (storage) => {
      const store = createDurableEventStore(storage);
      await store.storeEvent('s', note(1));
      return store.storeEvent('s', note(2));
    });
    await inStorage(async (storage) => {
      const store = createDurableEventStore(storage);
      for (const id of [elsewhere, '0', '-1', 'abc', '1e3', '', '00001']) {
        expect(await store.eventsAfter(id)).toBeUndefined();
        expect(await store.streamOf(id)).toBeUndefined();
      }
      await expect(replay(store, elsewhere)).rejects.toThrow(/No event/);
    });
  });

  describe.each<[string, McpEventStoreLimits]>([
    ['events per stream', { maxEventsPerStream: 3 }],
    ['bytes', { maxBytes: 3 * JSON.stringify(note(1)).length }],
  ])('bounded by %s', (_label, limits) => {
    it('drops the oldest events first, keeps the newest, and refuses a resume from a dropped one', async () => {
      await inStorage(async (storage) => {
        const store = createDurableEventStore(storage, limits);
        const ids: string[] = [];
        for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent('s', note(n)));
        expect(await store.eventsAfter(ids[1]!)).toBeUndefined();
        expect((await replay(store, ids[2]!)).sent.map(([id]) => id)).toEqual([ids[3], ids[4]]);
        const keys = [...(await storage.list({ prefix: 'mcp-event:' })).keys()];
        expect(keys).toHaveLength(3);
      });
    });
  });

  it('drops events older than its age bound, but never the newest, and never spends an id twice', async () => {
    await inStorage(async (storage) => {
      let clock = 1_000_000;
      const store = createDurableEventStore(storage, { maxAgeMs: 60_000 }, () => clock);
      const old = await store.storeEvent('s', note(1));
      clock += 61_000;
      await store.prune();
      expect(await store.streamOf(old)).toBe('s');
      const fresh = await store.storeEvent('s', note(2));
      expect(await store.streamOf(old)).toBeUndefined();
      clock += 61_000;
      await store.prune();
      const reloaded = createDurableEventStore(storage, { maxAgeMs: 60_000 }, () => clock);
      expect(await reloaded.streamOf(fresh)).toBe('s');
      const later = await reloaded.storeEvent('s', note(3));
      expect(Number(later)).toBeGreaterThan(Number(fresh));
      expect(await reloaded.streamOf(fresh)).toBeUndefined();
    });
  });

  it('a store woken after an eviction replays no event past its age bound', async () => {
    await inStorage(async (storage) => {
      let clock = 1_000_000;
      const before = createDurableEventStore(storage, { maxAgeMs: 60_000 }, () => clock);
      const old = await before.storeEvent('s', note(1));
      const newest = await before.storeEvent('s', note(2));
      clock += 61_000;
      const woken = createDurableEventStore(storage, { maxAgeMs: 60_000 }, () => clock);
      expect(await woken.eventsAfter(old)).toBeUndefined();
      expect(await woken.eventsAfter(newest)).toEqual({ streamId: 's', events: [] });
    });
  });

  describe('by default', () => {
    /** A message whose stored JSON is exactly `bytes` bytes (ASCII, so one byte a character). */
    const sized = (bytes: number): JSONRPCMessage => {
      const empty = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: '' } }).length;
      return { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(bytes - empty) } };
    };

    it("keeps 1000 events of a stream, and the 1001st drops the stream's oldest", async () => {
      await inStorage(async (storage) => {
        const store = createDurableEventStore(storage);
        const ids: string[] = [];
        for (let n = 1; n <= 1000; n++) ids.push(await store.storeEvent('s', note(n)));
        expect(await store.streamOf(ids[0]!)).toBe('s');
        ids.push(await store.storeEvent('s', note(1001)));
        expect(await store.streamOf(ids[0]!)).toBeUndefined();
        expect(await store.streamOf(ids[1]!)).toBe('s');
        expect((await storage.list({ prefix: 'mcp-event:' })).size).toBe(1000);
      });
    });

    it('keeps an event for 10 minutes, and drops it once it is older', async () => {
      await inStorage(async (storage) => {
        let clock = 1_000_000;
        const store = createDurableEventStore(storage, {}, () => clock);
        const old = await store.storeEvent('s', note(1));
        clock += 600_000;
        await store.storeEvent('s', note(2));
        expect(await store.streamOf(old)).toBe('s');
        clock += 1;
        await store.prune();
        expect(await store.streamOf(old)).toBeUndefined();
      });
    });

    it('keeps 4 MiB (4 194 304 bytes) of events, and one byte more drops the oldest', async () => {
      const first = JSON.stringify(note(1)).length;
      for (const [over, kept] of [
        [0, true],
        [1, false],
      ] as const) {
        await inStorage(async (storage) => {
          const store = createDurableEventStore(storage);
          const oldest = await store.storeEvent('s', note(1));
          const big = await store.storeEvent('s', sized(4_194_304 - first + over));
          expect(await store.streamOf(oldest), `${over} byte(s) over 4 MiB`).toBe(kept ? 's' : undefined);
          expect(await store.streamOf(big)).toBe('s');
        });
      }
    });
  });

  it('an event larger than the byte bound is kept while it is the newest', async () => {
    await inStorage(async (storage) => {
      const store = createDurableEventStore(storage, { maxBytes: 100 });
      const from = await store.storeEvent('s', note(1));
      const big: JSONRPCMessage = { jsonrpc: '2.0', id: 2, result: { text: 'x'.repeat(500) } };
      const bigId = await store.storeEvent('s', big);
      expect(await store.streamOf(from)).toBeUndefined();
      expect(await store.streamOf(bigId)).toBe('s');
    });
  });
});
