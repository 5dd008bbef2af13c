import type { Identity, PendingApproval, PendingApprovalStore, Phase, ToolEvent } from '@toolctx/core';
import { plainJson } from '@toolctx/core/sse';
import type { RunStorage } from './run-storage.js';

/** What a run host keeps about its run, beside the events: enough to bring the run back to life. */
export interface RunRecord {
  runId: string;
  /** The identity that started the run; only it may use the run. */
  owner: Identity;
  sessionId?: string;
  phase: Phase;
  state: Record<string, unknown>;
  createdAt: number;
  ended: boolean;
  /** When the run ended (its `run.finished`), ms since the epoch; its storage is deleted a retention window later. */
  endedAt?: number;
}

const recordKey = 'run';
const eventPrefix = 'e:';
const eventKey = (seq: number) => `${eventPrefix}${String(seq).padStart(15, '0')}`;
const approvalPrefix = 'a:';
/** A piece of an event kept in pieces, after the event's own key; numbered so the pieces sort in order. */
const pieceKey = (seq: number, part: number) => `${eventKey(seq)}#${String(part).padStart(6, '0')}`;
/**
 * Characters of JSON per piece of an event too big for one value (a Durable Object refuses a
 * value over 2 MB): 256 Ki characters are at most 512 KiB however they are encoded.
 */
const pieceChars = 256 * 1024;

/** What an event's key holds when the event is kept in pieces: its JSON's first piece, and how many there are. */
interface PiecedEvent {
  json: string;
  parts: number;
}
/** What a key under `e:` holds: an event, the head of one in pieces, or one of its later pieces. */
type StoredEvent = ToolEvent | PiecedEvent | string;

/**
 * A run's record and its bounded event log, in a {@link RunStorage}: the last `maxEvents` events
 * are kept, each under a key that sorts by `seq`. Appending costs the same however long the run:
 * one put and, once the log is full, one delete (and one more to find it held no pieces). An
 * event too big for one value (a 3 MB progress report) is kept as its JSON, the text an SSE reader
 * got, cut in pieces under keys that sort right after its own: it replays as it was sent, and
 * nothing after it is lost. The latest `seq` is not stored apart: it is the last event's key, read
 * once per host, since a key written with every event doubled the writes per call. The record is
 * kept in memory after its first read, since a host is the only writer. The run's calls that wait
 * for approval are kept beside them, one key each ({@link RunLog.pendingApprovals}), so a
 * restarted host can still decide them.
 */
export class RunLog {
  private latestSeq: number | undefined;
  private cachedRecord: RunRecord | undefined;
  /** The run's pending approvals, for `runtime.startRun({ pendingApprovals })`: `a:<approvalId>` keys. */
  readonly pendingApprovals: PendingApprovalStore;

  constructor(
    private readonly storage: RunStorage,
    readonly maxEvents: number,
  ) {
    if (!Number.isInteger(maxEvents) || maxEvents < 1)
      throw new RangeError(`maxEvents must be a positive integer, not ${maxEvents}.`);
    this.pendingApprovals = {
      get: (approvalId) => storage.get<PendingApproval>(approvalPrefix + approvalId),
      put: (pending) => storage.put(approvalPrefix + pending.approvalId, pending),
      delete: (approvalId) => void storage.delete(approvalPrefix + approvalId),
      list: () =>
        [...storage.list<PendingApproval>({ prefix: approvalPrefix })].map(([, pending]) => pending),
    };
  }

  /** Forgets what it read, for a host whose storage was deleted under it. */
  forget(): void {
    this.cachedRecord = undefined;
    this.latestSeq = undefined;
  }

  get record(): RunRecord | undefined {
    this.cachedRecord ??= this.storage.get<RunRecord>(recordKey);
    return this.cachedRecord;
  }

  set record(record: RunRecord) {
    this.storage.put(recordKey, record);
    this.cachedRecord = record;
  }

  /** The `seq` of the last event kept (0 before any). */
  get latest(): number {
    if (this.latestSeq === undefined) {
      const [last] = this.storage.list({ prefix: eventPrefix, reverse: true, limit: 1 });
      // An event's key, or one of its pieces' (`e:<seq>#<part>`): the seq is the number after `e:`.
      this.latestSeq = last ? Number.parseInt(last[0].slice(eventPrefix.length), 10) : 0;
    }
    return this.latestSeq;
  }

  /** The `seq` of the oldest event still kept (`latest + 1` when none is). */
  get oldest(): number {
    return Math.max(1, this.latest - this.maxEvents + 1);
  }

  append(event: ToolEvent): void {
    this.keep(event);
    this.latestSeq = event.seq;
    const dropped = event.seq - this.maxEvents;
    if (dropped >= 1 && this.storage.delete(eventKey(dropped)))
      for (let part = 1; this.storage.delete(pieceKey(dropped, part)); part++);
  }

  /** The kept events whose `seq` is greater than `seq`, in order. */
  after(seq: number): ToolEvent[] {
    const events: ToolEvent[] = [];
    let pieced: PiecedEvent | undefined;
    for (const [, stored] of this.storage.list<StoredEvent>({
      start: eventKey(seq + 1),
      prefix: eventPrefix,
    })) {
      if (typeof stored === 'string') {
        if (!pieced) continue;
        pieced.json += stored;
        if (--pieced.parts === 1) events.push(JSON.parse(pieced.json) as ToolEvent);
      } else if ('json' in stored) {
        if (stored.parts === 1) events.push(JSON.parse(stored.json) as ToolEvent);
        else pieced = { ...stored };
      } else events.push(stored);
    }
    return events;
  }

  /** Writes `event` under its key; one too big for a value, as its JSON in pieces. */
  private keep(event: ToolEvent): void {
    try {
      this.storage.put(eventKey(event.seq), event);
      return;
    } catch {
      // Too big for one value (SQLITE_TOOBIG): in pieces, below.
    }
    try {
      const json = plainJson(event);
      const parts = Math.ceil(json.length / pieceChars);
      this.storage.put<PiecedEvent>(eventKey(event.seq), { json: json.slice(0, pieceChars), parts });
      for (let part = 1; part < parts; part++)
        this.storage.put(pieceKey(event.seq, part), json.slice(part * pieceChars, (part + 1) * pieceChars));
    } catch (error) {
      // Storage itself failed (it is full, say): the event reached its live readers, but a replay
      // will not have it. Said, rather than thrown into the run, whose later events can still be kept.
      console.warn(`toolctx: event ${event.seq} (${event.type}) could not be kept: ${errorName(error)}.`);
    }
  }
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);
