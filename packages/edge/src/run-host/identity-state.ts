import { DurableObject } from 'cloudflare:workers';
import type { Identity } from '@toolctx/core';
import type { Reply } from '../door/door-error.js';
import { sameIdentity } from '../door/same-identity.js';
import { limitExceeded } from './limits.js';
import { type ListedRun, pageOf, positionOf, type RunPage, summaryOf } from './run-list.js';

/**
 * What an identity's slots are held for: its runs, its MCP sessions, or its calls in flight on the
 * one-shot route and in MCP sessions (each kind counted apart).
 *
 * @experimental The kinds of slot may grow.
 */
export type SlotKind = 'run' | 'mcp-session' | 'call';

/** Each kind's keys, and how a refusal names its limit: what is counted, the option, the way out, the wait. */
const kinds: Record<
  SlotKind,
  { prefix: string; what: string; option: string; advice: string; retryAfterSeconds: number }
> = {
  run: {
    prefix: 'r:',
    what: 'live runs for this identity',
    option: 'maxRunsPerIdentity',
    advice: 'End a run (DELETE /runs/:id) or let an idle one end',
    retryAfterSeconds: 30,
  },
  'mcp-session': {
    prefix: 'm:',
    what: 'live MCP sessions for this identity',
    option: 'maxSessionsPerIdentity',
    advice: 'Close a session (DELETE /mcp with its mcp-session-id) or let an idle one lapse',
    retryAfterSeconds: 60,
  },
  call: {
    prefix: 'c:',
    what: 'calls in flight for this identity',
    option: 'maxCallsPerIdentity',
    advice: 'Wait for one of its calls to finish',
    retryAfterSeconds: 1,
  },
};

/** A listed run's key: its owner's conversation (encoded, so no id can pass for another), then its place. */
const listKey = (run: { owner: Identity; createdAt: number; runId: string }) =>
  `${listPrefix(run.owner)}${positionOf(run)}`;
const listPrefix = (owner: Identity) =>
  `l:${owner.conversationId === undefined ? '-' : `=${encodeURIComponent(owner.conversationId)}`}:`;
/** An ended run's forgetting, by when: `f:<when, 15 digits>:<its list key>`, so the due ones are read first. */
const forgetKey = (at: number, key: string) => `f:${String(at).padStart(15, '0')}:${key}`;

/** A listed run as stored: once it ended, when it is forgotten. */
type StoredRun = ListedRun & { forgetAt?: number };

/**
 * What one identity holds across isolates: the slots of its live runs, MCP sessions and calls in
 * flight, the list of its runs, and the MCP 2026 round states it used once. It counts those slots
 * across all the run hosts, session objects and isolates: one object per identity (`idFromName` of its tenant and principal),
 * bound as `IDENTITY_STATE` next to `RUNS`. {@link index!durableObjectRuns} takes a slot before a
 * run starts and the run host gives it back when the run finishes, however it ends (a DELETE, the
 * idle alarm); with `sessionLimit`, {@link index!mcpFetch} takes one before a session starts and
 * the session object gives it back when the session is closed or lapses; with `callLimit`, the
 * one-shot route and MCP sessions take one per call and give it back when the call settles.
 *
 * A call's slot is a lease its holder renews while the call runs (every third of the lease), held
 * in this object's memory, never its storage: a call costs the object no write, so taking and
 * giving back a slot adds two RPCs to a call and nothing else. A lease not renewed in time (its
 * isolate crashed or was restarted, so no release will come) stops counting. If this object
 * restarts, the leases are lost with its memory and come back with their holders' next renewals:
 * until then, at most one lease's third, the identity may start more calls than its limit.
 *
 * It also lists the identity's runs for `GET /runs`: {@link IdentityStateObject.enlistRun} writes a
 * run's entry with its slot, {@link IdentityStateObject.finishRun} marks it ended and keeps it
 * until the run host deletes the run (its retention window), and the object's alarm removes it
 * then; an identity with nothing live and nothing listed keeps no storage.
 *
 * @example
 * ```ts
 * import { IdentityStateObject } from '@toolctx/edge/durable-objects';
 * // wrangler.jsonc: { "name": "IDENTITY_STATE", "class_name": "IdentityState" }, and a new_sqlite_classes migration.
 * export class IdentityState extends IdentityStateObject {}
 * ```
 */
export class IdentityStateObject extends DurableObject {
  /** The call leases: each call slot's id and when it lapses (ms since the epoch). */
  private readonly leases = new Map<string, number>();

  /**
   * Takes a slot of `kind` (default: a run) for `id`, unless the identity already holds `max` of
   * that kind; `taken` is false when `id` held one already. A call's slot is a lease of `leaseMs`
   * (kept by {@link renew}); a lapsed one is not counted.
   */
  async acquire(
    id: string,
    max: number,
    kind: SlotKind = 'run',
    leaseMs = 30_000,
  ): Promise<Reply<{ live: number; taken: boolean }>> {
    return this.take(id, max, kind, leaseMs);
  }

  /** {@link acquire}'s work, without an await, so a caller's next write lands in the same transaction. */
  private take(
    id: string,
    max: number,
    kind: SlotKind,
    leaseMs: number,
  ): Reply<{ live: number; taken: boolean }> {
    const kv = this.ctx.storage.kv;
    const { prefix, what, option, advice, retryAfterSeconds } = kinds[kind];
    const key = `${prefix}${id}`;
    const call = kind === 'call';
    const live = call ? this.liveLeases() : [...kv.list({ prefix })].length;
    if (call ? this.leases.has(id) : kv.get(key) !== undefined)
      return { ok: true, value: { live, taken: false } };
    if (live >= max) return limitExceeded(what, max, option, advice, retryAfterSeconds);
    if (call) this.leases.set(id, Date.now() + leaseMs);
    else kv.put(key, Date.now());
    return { ok: true, value: { live: live + 1, taken: true } };
  }

  /**
   * Takes a run slot for `run`, as {@link acquire} does, and lists the run for its owner: both
   * writes with no await between them, so they are stored together or not at all.
   */
  async enlistRun(run: ListedRun, max: number): Promise<Reply<{ live: number; taken: boolean }>> {
    const slot = this.take(run.runId, max, 'run', 0);
    if (slot.ok && slot.value.taken) {
      const stored: StoredRun = { ...summaryOf(run), owner: run.owner };
      this.ctx.storage.kv.put(listKey(run), stored);
    }
    return slot;
  }

  /**
   * Gives back `run`'s slot and keeps it listed, ended, until `listedUntil` (ms since the epoch:
   * when its host deletes it); a time already passed removes its entry now (a run that did not
   * start, or one its host has deleted). Again changes nothing.
   */
  async finishRun(run: ListedRun, listedUntil: number): Promise<void> {
    const kv = this.ctx.storage.kv;
    kv.delete(`${kinds.run.prefix}${run.runId}`);
    const key = listKey(run);
    const stored = kv.get<StoredRun>(key);
    if (stored && listedUntil <= Date.now()) {
      kv.delete(key);
      if (stored.forgetAt !== undefined) kv.delete(forgetKey(stored.forgetAt, key));
    } else if (stored && stored.forgetAt === undefined) {
      const ended: StoredRun = { ...stored, ended: true, forgetAt: listedUntil };
      if (run.endedAt !== undefined) ended.endedAt = run.endedAt;
      kv.put(key, ended);
      kv.put(forgetKey(listedUntil, key), key);
      const alarm = await this.ctx.storage.getAlarm();
      if (alarm === null || alarm > listedUntil) await this.ctx.storage.setAlarm(listedUntil);
    }
    await this.deleteIfEmpty();
  }

  /**
   * A page of `caller`'s listed runs, newest first, after `after` (a position from the previous
   * page's cursor). Only the caller's own: its conversation's entries, each owner checked again.
   */
  async listRuns(caller: Identity, after: string | undefined, limit: number): Promise<RunPage> {
    const prefix = listPrefix(caller);
    const entries = this.ctx.storage.kv.list<StoredRun>({
      prefix,
      ...(after === undefined ? {} : { startAfter: `${prefix}${after}` }),
    });
    return pageOf(ownedBy(caller, prefix, entries), limit);
  }

  /**
   * Whether `key` is used for the first time: it is remembered until `until` (ms since the epoch),
   * and a use before then answers `false`. What must happen once in a deployment, not once per
   * isolate: the retry of an MCP 2026 round's state. The alarm forgets it.
   */
  async useOnce(key: string, until: number): Promise<boolean> {
    const kv = this.ctx.storage.kv;
    const stored = `o:${key}`;
    if (kv.get(stored) !== undefined) return false;
    kv.put(stored, until);
    kv.put(forgetKey(until, stored), stored);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > until) await this.ctx.storage.setAlarm(until);
    return true;
  }

  /** Removes the listed runs whose retention has passed, then waits for the next one (or deletes an emptied object). */
  override async alarm(): Promise<void> {
    const kv = this.ctx.storage.kv;
    const due = [...kv.list<string>({ prefix: 'f:', end: forgetKey(Date.now() + 1, '') })];
    for (const [forget, key] of due) {
      kv.delete(key);
      kv.delete(forget);
    }
    const [next] = kv.list<string>({ prefix: 'f:', limit: 1 });
    if (next) await this.ctx.storage.setAlarm(Number(next[0].slice(2, 17)));
    else await this.deleteIfEmpty();
  }

  /**
   * Extends the lease of the call slot held for `id` to `leaseMs` from now, whatever the count (a
   * call that runs is counted): `false` when the slot had lapsed or this object lost it in a
   * restart, and it is held again.
   */
  async renew(id: string, leaseMs = 30_000): Promise<boolean> {
    const held = (this.leases.get(id) ?? 0) > Date.now();
    this.leases.set(id, Date.now() + leaseMs);
    return held;
  }

  /**
   * Gives back the slot of `kind` held for `id`; giving it back twice changes nothing. The last
   * run or session slot given back, with no run listed, deletes the object's storage: an identity
   * with no live run or session keeps nothing.
   */
  async release(id: string, kind: SlotKind = 'run'): Promise<void> {
    if (kind === 'call') {
      this.leases.delete(id);
      return;
    }
    this.ctx.storage.kv.delete(`${kinds[kind].prefix}${id}`);
    await this.deleteIfEmpty();
  }

  /**
   * With no slot held and no run listed, deletes the object's storage: an emptied table would
   * still be billed, one object for every identity ever seen. The alarm first, as deleteAlarm
   * after deleteAll would write its metadata back.
   */
  private async deleteIfEmpty(): Promise<void> {
    if ([...this.ctx.storage.kv.list({ limit: 1 })].length > 0) return;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** How many call leases have not lapsed; the lapsed ones are forgotten on the way. */
  private liveLeases(): number {
    const now = Date.now();
    for (const [id, lapsesAt] of this.leases) if (lapsesAt <= now) this.leases.delete(id);
    return this.leases.size;
  }
}

/** The entries of `caller`'s conversation whose owner is the caller (a tenant of `''` and none share an object). */
function* ownedBy(
  caller: Identity,
  prefix: string,
  entries: Iterable<[string, StoredRun]>,
): Iterable<[string, ListedRun]> {
  for (const [key, run] of entries)
    if (sameIdentity(run.owner, caller)) yield [key.slice(prefix.length), run];
}
