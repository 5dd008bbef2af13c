import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * How much of an MCP session's stream history its Durable Object keeps for clients that resume
 * with `Last-Event-ID`. Past any bound the oldest events go first (never the newest one), and a
 * resume from an event that is gone is refused (400), so a client never silently skips events.
 */
export interface McpEventStoreLimits {
  /** Events kept per stream (a POST's response stream, or the session's GET stream). Default 1000. */
  maxEventsPerStream?: number;
  /** Bytes of JSON kept for the whole session. Default 4 MiB. */
  maxBytes?: number;
  /** How long an event is kept, in ms. Default 10 minutes. */
  maxAgeMs?: number;
}

export const defaultMcpEventStoreLimits: Required<McpEventStoreLimits> = {
  maxEventsPerStream: 1000,
  maxBytes: 4 * 1024 * 1024,
  maxAgeMs: 10 * 60_000,
};

/** The SDK's `EventStore`, kept in Durable Object storage, with what the session needs to resume. */
export interface DurableEventStore extends EventStore {
  /** The stream an event id belongs to, if the event is still kept. */
  streamOf(eventId: EventId): Promise<StreamId | undefined>;
  /** The stream's events after `eventId`, in order (priming events left out), if it is kept. */
  eventsAfter(eventId: EventId): Promise<{ streamId: StreamId; events: StoredEvent[] } | undefined>;
  /** Drops what is past the age bound. */
  prune(): Promise<void>;
}

export interface StoredEvent {
  id: EventId;
  message: JSONRPCMessage;
}

interface Entry {
  seq: number;
  stream: StreamId;
  at: number;
  data: string;
  bytes: number;
}

/** What one storage key holds: the event, its JSON cut in pieces under the per-value limit. */
interface EventRecord {
  stream: StreamId;
  at: number;
  parts: number;
  data: string;
}

const prefix = 'mcp-event:';
const nextKey = 'mcp-event-next';
/** Characters of JSON per storage value: 64 KiB at two bytes a character, under KV-backed storage's 128 KiB. */
const pieceChars = 32 * 1024;
const encoder = new TextEncoder();

const keyOf = (seq: number, part = 0) =>
  `${prefix}${String(seq).padStart(12, '0')}${part === 0 ? '' : `#${part}`}`;

/**
 * Event ids are the session's own sequence numbers. They name events only within the object that
 * holds them, which only the session's owner reaches (see `McpSession`): an id from another
 * session names nothing of that session here.
 */
const seqOf = (eventId: EventId): number | undefined =>
  /^[1-9]\d{0,14}$/.test(eventId) ? Number(eventId) : undefined;

/**
 * Makes the event store of one MCP session, in its Durable Object's storage: every message the
 * transport sends (and each stream's priming event) is written before it is sent, so a client that
 * reconnects with `Last-Event-ID` gets what it missed even after the object was evicted.
 */
export function createDurableEventStore(
  storage: DurableObjectStorage,
  limits: McpEventStoreLimits = {},
  now: () => number = Date.now,
): DurableEventStore {
  const bounds = { ...defaultMcpEventStoreLimits, ...limits };
  let entries: Entry[] = [];
  let next = 1;
  let loading: Promise<void> | undefined;
  const load = () => {
    loading ??= (async () => {
      const stored = await storage.list<EventRecord | string | number>({ prefix });
      const pieces = new Map<string, string>();
      for (const [key, value] of stored) if (typeof value === 'string') pieces.set(key, value);
      for (const [key, value] of stored) {
        if (typeof value !== 'object') continue;
        const seq = Number(key.slice(prefix.length));
        let data = value.data;
        for (let part = 1; part < value.parts; part++) data += pieces.get(keyOf(seq, part)) ?? '';
        entries.push({
          seq,
          stream: value.stream,
          at: value.at,
          data,
          bytes: encoder.encode(data).byteLength,
        });
      }
      next = Math.max((await storage.get<number>(nextKey)) ?? 1, (entries.at(-1)?.seq ?? 0) + 1);
    })();
    return loading;
  };
  const keysOf = (entry: Entry) =>
    Array.from({ length: Math.max(1, Math.ceil(entry.data.length / pieceChars)) }, (_, part) =>
      keyOf(entry.seq, part),
    );
  const drop = async (gone: Entry[]) => {
    if (gone.length === 0) return;
    const set = new Set(gone);
    entries = entries.filter((entry) => !set.has(entry));
    const keys = gone.flatMap(keysOf);
    for (let i = 0; i < keys.length; i += 128) await storage.delete(keys.slice(i, i + 128));
  };
  const overBounds = (): Entry[] => {
    const newest = entries.at(-1);
    const gone = new Set<Entry>();
    const oldest = now() - bounds.maxAgeMs;
    for (const entry of entries) if (entry !== newest && entry.at < oldest) gone.add(entry);
    const perStream = new Map<StreamId, Entry[]>();
    for (const entry of entries) {
      const list = perStream.get(entry.stream);
      if (list) list.push(entry);
      else perStream.set(entry.stream, [entry]);
    }
    for (const list of perStream.values())
      for (const entry of list.slice(0, Math.max(0, list.length - bounds.maxEventsPerStream)))
        if (entry !== newest) gone.add(entry);
    let bytes = 0;
    for (const entry of entries) if (!gone.has(entry)) bytes += entry.bytes;
    for (const entry of entries) {
      if (bytes <= bounds.maxBytes || entry === newest) break;
      if (!gone.has(entry)) {
        gone.add(entry);
        bytes -= entry.bytes;
      }
    }
    return entries.filter((entry) => gone.has(entry));
  };
  const find = async (eventId: EventId) => {
    await load();
    // Bounds hold for reads too: an object woken after an eviction never replays an aged event.
    await drop(overBounds());
    const seq = seqOf(eventId);
    return seq === undefined ? undefined : entries.find((entry) => entry.seq === seq);
  };

  const store: DurableEventStore = {
    async storeEvent(streamId, message) {
      await load();
      const data = JSON.stringify(message);
      const entry: Entry = {
        seq: next++,
        stream: streamId,
        at: now(),
        data,
        bytes: encoder.encode(data).byteLength,
      };
      entries.push(entry);
      const values: { [key: string]: EventRecord | string | number } = { [nextKey]: next };
      keysOf(entry).forEach((key, part) => {
        const piece = data.slice(part * pieceChars, (part + 1) * pieceChars);
        values[key] =
          part === 0 ? { stream: streamId, at: entry.at, parts: keysOf(entry).length, data: piece } : piece;
      });
      const keys = Object.keys(values);
      for (let i = 0; i < keys.length; i += 128)
        await storage.put(Object.fromEntries(keys.slice(i, i + 128).map((key) => [key, values[key]])));
      await drop(overBounds());
      return String(entry.seq);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const found = await store.eventsAfter(lastEventId);
      if (!found) throw new Error(`No event ${JSON.stringify(lastEventId)} is kept in this session.`);
      for (const event of found.events) await send(event.id, event.message);
      return found.streamId;
    },
    async streamOf(eventId) {
      return (await find(eventId))?.stream;
    },
    async eventsAfter(eventId) {
      const from = await find(eventId);
      if (!from) return undefined;
      const events: StoredEvent[] = [];
      for (const entry of entries) {
        if (entry.seq <= from.seq || entry.stream !== from.stream) continue;
        const message = JSON.parse(entry.data) as JSONRPCMessage;
        // Priming events carry no message: the id was what the client needed of them.
        if ('jsonrpc' in message) events.push({ id: String(entry.seq), message });
      }
      return { streamId: from.stream, events };
    },
    async prune() {
      await load();
      await drop(overBounds());
    },
  };
  return store;
}
