import type { Identity, PendingApproval, PendingApprovalStore, Phase, ToolEvent } from '@toolctx/core';
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

/**
 * A run's record and its bounded event log, in a {@link RunStorage}: the last `maxEvents` events
 * are kept, each under a key that sorts by `seq`. Appending costs the same however long the run:
 * one put and, once the log is full, one delete. The latest `seq` is not stored apart: it is the
 * last event's key, read once per host, since a key written with every event doubled the writes
 * per call. The record is kept in memory after its first read, since a host is the only writer.
 * The run's calls that wait for approval are kept beside them, one key each
 * ({@link RunLog.pendingApprovals}), so a restarted host can still decide them.
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
      const [last] = this.storage.list<ToolEvent>({ prefix: eventPrefix, reverse: true, limit: 1 });
      this.latestSeq = last ? last[1].seq : 0;
    }
    return this.latestSeq;
  }

  /** The `seq` of the oldest event still kept (`latest + 1` when none is). */
  get oldest(): number {
    return Math.max(1, this.latest - this.maxEvents + 1);
  }

  append(event: ToolEvent): void {
    this.storage.put(eventKey(event.seq), event);
    this.latestSeq = event.seq;
    const dropped = event.seq - this.maxEvents;
    if (dropped >= 1) this.storage.delete(eventKey(dropped));
  }

  /** The kept events whose `seq` is greater than `seq`, in order. */
  after(seq: number): ToolEvent[] {
    const events: ToolEvent[] = [];
    for (const [, event] of this.storage.list<ToolEvent>({ start: eventKey(seq + 1), prefix: eventPrefix }))
      events.push(event);
    return events;
  }
}
