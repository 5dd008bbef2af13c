import type {
  CallRecord,
  CallStore,
  Identity,
  PendingApproval,
  PendingApprovalStore,
  Phase,
  ToolEvent,
} from '@toolctx/core';
import type { RunStorage } from './run-storage.js';
import { deleteValue, getValue, listValues, putValue, replaceValue } from './stored-values.js';

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
  /** The call whose settling ends the run (`RunInit.endsWithCall`). */
  endsWithCall?: string;
}

const recordKey = 'run';
const eventPrefix = 'e:';
const eventKey = (seq: number) => `${eventPrefix}${String(seq).padStart(15, '0')}`;
const approvalPrefix = 'a:';
/** A call's record while it is open (working, or waiting for a person): few, listed on a wake. */
const openCallPrefix = 'o:';
/** A settled call's record (its result in it), kept for the run's retention window. */
const settledCallPrefix = 'c:';
/** Whether a call is over (`completed`, `failed` or `cancelled`): its record will not change again. */
export const isSettled = ({ status }: { status: CallRecord['status'] }) =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

/**
 * A run's record and its bounded event log, in a {@link RunStorage}: the last `maxEvents` events
 * are kept, each under a key that sorts by `seq`. Appending costs the same however long the run:
 * one put and, once the log is full, one delete (and one more to find it held no pieces). A value
 * too big for one (a 3 MB progress report, approval or run state) is kept in pieces
 * (stored-values.ts): an event replays as it was sent, and nothing after it is lost. The latest
 * `seq` is not stored apart: it is the last event's key, read once per host, since a key written
 * with every event doubled the writes per call. The record is kept in memory after its first read,
 * since a host is the only writer. The run's calls that wait for approval are kept beside them,
 * one key each ({@link RunLog.pendingApprovals}), so a restarted host can still decide them.
 */
export class RunLog {
  private latestSeq: number | undefined;
  private cachedRecord: RunRecord | undefined;
  private openRecords: Map<string, CallRecord> | undefined;
  /** The last call id looked up and not found: the twin checks of one call (the door's, core's) read storage once. */
  private missingCall: string | undefined;
  /** The first `seq` this host appended, and those of its events it kept in pieces (few, if any). */
  private firstAppended: number | undefined;
  private readonly piecedEvents = new Set<number>();
  /** The open records this host stored whole (not in pieces): replacing or deleting one looks for no pieces. */
  private readonly wholeOpen = new Set<string>();
  /**
   * The settled record filed or read last, kept: a settled record never changes, and an MCP task's
   * one call is read again at every poll once it completed (one record per host, however big).
   */
  private lastSettled: CallRecord | undefined;
  /** The run's pending approvals, for `runtime.startRun({ pendingApprovals })`: `a:<approvalId>` keys. */
  readonly pendingApprovals: PendingApprovalStore;
  /**
   * The run's call records, for `runtime.startRun({ calls })`: an open call under `o:<id>`, moved to
   * `c:<id>` when it settles, so a wake lists only the open ones. A result of any size is kept
   * whole (in pieces past a value's limit), until the run's storage is deleted.
   */
  readonly calls: CallStore;

  constructor(
    private readonly storage: RunStorage,
    readonly maxEvents: number,
  ) {
    if (!Number.isInteger(maxEvents) || maxEvents < 1)
      throw new RangeError(`maxEvents must be a positive integer, not ${maxEvents}.`);
    this.pendingApprovals = {
      get: (approvalId) => getValue<PendingApproval>(storage, approvalPrefix + approvalId),
      put: (pending) => putValue(storage, approvalPrefix + pending.approvalId, pending),
      delete: (approvalId) => void deleteValue(storage, approvalPrefix + approvalId),
      list: () =>
        Array.from(
          listValues<PendingApproval>(storage, { prefix: approvalPrefix }),
          ([, pending]) => pending,
        ),
    };
    // The open records are read from storage once per host and then kept in memory beside it,
    // since a host is their only writer: every call asks for its id (the twin check) and the open
    // calls (the run's limits, the keep-alive alarm), which were two reads and two listings of
    // SQLite per call. A settled record is read from storage, but for the last one filed or read;
    // `put` moves a record from open to settled in one synchronous turn, so it is never seen in both.
    const open = () => {
      this.openRecords ??= new Map(
        Array.from(listValues<CallRecord>(storage, { prefix: openCallPrefix }), ([, record]) => [
          record.toolCallId,
          record,
        ]),
      );
      return this.openRecords;
    };
    // A host is also the only writer of the settled records, so an id found in neither place stays
    // unknown until `put` files it: the second twin check of a call (the door's, then core's) and
    // the settled record's write (nothing to replace) need not read storage again.
    this.calls = {
      get: (id) => {
        if (this.lastSettled?.toolCallId === id) return this.lastSettled;
        const record = open().get(id);
        if (record || id === this.missingCall) return record;
        const stored = getValue<CallRecord>(storage, settledCallPrefix + id);
        if (!stored) this.missingCall = id;
        else this.lastSettled = stored;
        return stored;
      },
      // What is stored is known too, so no write looks for pieces that are not there: an open
      // record not in the map has no key yet, and a call settles once, so the settled record of a
      // call that was open has none either. A call the door started costs three writes: its open
      // record, its settled one, and the open one's delete.
      put: (record) => {
        const id = record.toolCallId;
        const records = open();
        const known = id !== this.missingCall;
        if (!known) this.missingCall = undefined;
        if (!isSettled(record)) {
          const key = openCallPrefix + id;
          const pieced = records.has(id)
            ? replaceValue(storage, key, record, !this.wholeOpen.has(id))
            : putValue(storage, key, record);
          if (pieced) this.wholeOpen.delete(id);
          else this.wholeOpen.add(id);
          records.set(id, record);
          return;
        }
        if (records.delete(id)) {
          putValue(storage, settledCallPrefix + id, record);
          deleteValue(storage, openCallPrefix + id, !this.wholeOpen.delete(id));
        } else if (known) replaceValue(storage, settledCallPrefix + id, record);
        else putValue(storage, settledCallPrefix + id, record);
        this.lastSettled = record;
      },
      open: () => open().values(),
    };
  }

  /**
   * Says no call of the run has this id (the door made it new): looking it up, and filing its
   * settled record, read and replace nothing in storage.
   */
  newCall(id: string): void {
    this.missingCall = id;
  }

  /** Forgets what it read, for a host whose storage was deleted under it. */
  forget(): void {
    this.cachedRecord = undefined;
    this.latestSeq = undefined;
    this.openRecords = undefined;
    this.missingCall = undefined;
    this.firstAppended = undefined;
    this.piecedEvents.clear();
    this.wholeOpen.clear();
    this.lastSettled = undefined;
  }

  get record(): RunRecord | undefined {
    this.cachedRecord ??= getValue<RunRecord>(this.storage, recordKey);
    return this.cachedRecord;
  }

  set record(record: RunRecord) {
    replaceValue(this.storage, recordKey, record);
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
    this.firstAppended ??= event.seq;
    try {
      if (putValue(this.storage, eventKey(event.seq), event)) this.piecedEvents.add(event.seq);
    } catch (error) {
      // Storage itself failed (it is full, say): the event reached its live readers, but a replay
      // will not have it. Said, rather than thrown into the run, whose later events can still be kept.
      console.warn(`toolctx: event ${event.seq} (${event.type}) could not be kept: ${errorName(error)}.`);
    }
    this.latestSeq = event.seq;
    const dropped = event.seq - this.maxEvents;
    if (dropped < 1) return;
    // Whether an event this host appended was kept in pieces is known; one from before is looked for.
    const pieced = dropped < this.firstAppended || this.piecedEvents.delete(dropped);
    deleteValue(this.storage, eventKey(dropped), pieced);
  }

  /** The kept events whose `seq` is greater than `seq`, in order. */
  after(seq: number): ToolEvent[] {
    const kept = listValues<ToolEvent>(this.storage, { start: eventKey(seq + 1), prefix: eventPrefix });
    return Array.from(kept, ([, event]) => event);
  }
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);
