import { DurableObject } from 'cloudflare:workers';
import type { Reply } from '../door-error.js';
import { limitExceeded } from './limits.js';

/**
 * What an identity's slots are held for: its runs, its MCP sessions, or its calls in flight on the
 * one-shot route and in MCP sessions (each kind counted apart).
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

/**
 * A call's slot is a lease: its holder renews it while the call runs, and one not renewed in time
 * (its isolate crashed or was restarted, so no release will ever come) stops counting and is
 * deleted. Runs and sessions need none: their own objects' alarms give their slots back.
 */
const leased = (kind: SlotKind) => kind === 'call';

/**
 * Counts one identity's live runs, MCP sessions and calls in flight, across all the run hosts,
 * session objects and isolates: one object per identity (`idFromName` of its tenant and principal),
 * bound as `IDENTITY_RUNS` next to `RUNS`. {@link index!durableObjectRuns} takes a slot before a
 * run starts and the run host gives it back when the run finishes, however it ends (a DELETE, the
 * idle alarm); with `sessionLimit`, {@link index!mcpFetch} takes one before a session starts and
 * the session object gives it back when the session is closed or lapses; with `callLimit`, the
 * one-shot route and MCP sessions take one per call and give it back when the call settles, and
 * one whose isolate died with it lapses when its lease is not renewed (this object's alarm).
 *
 * @example
 * ```ts
 * import { IdentityRunsObject } from '@toolctx/edge/durable-objects';
 * // wrangler.jsonc: { "name": "IDENTITY_RUNS", "class_name": "IdentityRuns" }, and a new_sqlite_classes migration.
 * export class IdentityRuns extends IdentityRunsObject {}
 * ```
 */
export class IdentityRunsObject extends DurableObject {
  /**
   * Takes a slot of `kind` (default: a run) for `id`, unless the identity already holds `max` of
   * that kind; `taken` is false when `id` held one already. A call's slot is a lease of `leaseMs`
   * (kept by {@link renew}); an expired one is not counted.
   */
  async acquire(
    id: string,
    max: number,
    kind: SlotKind = 'run',
    leaseMs = 30_000,
  ): Promise<Reply<{ live: number; taken: boolean }>> {
    const kv = this.ctx.storage.kv;
    const { prefix, what, option, advice, retryAfterSeconds } = kinds[kind];
    const key = `${prefix}${id}`;
    const live = leased(kind) ? this.liveLeases() : [...kv.list({ prefix })].length;
    if (kv.get(key) !== undefined) return { ok: true, value: { live, taken: false } };
    if (live >= max) return limitExceeded(what, max, option, advice, retryAfterSeconds);
    if (leased(kind)) await this.lease(key, leaseMs);
    else kv.put(key, Date.now());
    return { ok: true, value: { live: live + 1, taken: true } };
  }

  /**
   * Extends the lease of the call slot held for `id` to `leaseMs` from now, whatever the count: a
   * call that runs is counted. `false` when the slot had lapsed (it is held again).
   */
  async renew(id: string, leaseMs = 30_000): Promise<boolean> {
    const key = `${kinds.call.prefix}${id}`;
    const held = (this.ctx.storage.kv.get<number>(key) ?? 0) > Date.now();
    await this.lease(key, leaseMs);
    return held;
  }

  /**
   * Gives back the slot of `kind` held for `id`; giving it back twice changes nothing. The last
   * slot given back deletes the object's storage: an identity with no live run or session keeps
   * nothing (an emptied table would still be billed, one object for every identity ever seen).
   */
  async release(id: string, kind: SlotKind = 'run'): Promise<void> {
    this.ctx.storage.kv.delete(`${kinds[kind].prefix}${id}`);
    await this.deleteIfEmpty();
  }

  /** Deletes the leases that lapsed, and the object's storage once nothing is held. */
  override async alarm(): Promise<void> {
    this.liveLeases();
    if (!(await this.deleteIfEmpty())) await this.armForNextExpiry();
  }

  /** The call leases that have not lapsed; the lapsed ones are deleted on the way. */
  private liveLeases(): number {
    const kv = this.ctx.storage.kv;
    const now = Date.now();
    let live = 0;
    for (const [key, expiresAt] of kv.list<number>({ prefix: kinds.call.prefix })) {
      if (expiresAt > now) live++;
      else kv.delete(key);
    }
    return live;
  }

  /** Writes a lease, and an alarm to delete it if its holder never renews nor releases it. */
  private async lease(key: string, leaseMs: number): Promise<void> {
    const expiresAt = Date.now() + leaseMs;
    this.ctx.storage.kv.put(key, expiresAt);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > expiresAt) await this.ctx.storage.setAlarm(expiresAt);
  }

  /** Re-arms for the earliest lease left (the alarm fires once, and leases were renewed since). */
  private async armForNextExpiry(): Promise<void> {
    let next = Number.POSITIVE_INFINITY;
    for (const [, expiresAt] of this.ctx.storage.kv.list<number>({ prefix: kinds.call.prefix }))
      next = Math.min(next, expiresAt);
    if (next !== Number.POSITIVE_INFINITY) await this.ctx.storage.setAlarm(next);
  }

  /** The last slot given back deletes the object's storage, alarm included; `true` if it did. */
  private async deleteIfEmpty(): Promise<boolean> {
    if ([...this.ctx.storage.kv.list({ limit: 1 })].length > 0) return false;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    return true;
  }
}
