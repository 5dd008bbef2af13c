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
 * Counts one identity's live runs, MCP sessions and calls in flight, across all the run hosts,
 * session objects and isolates: one object per identity (`idFromName` of its tenant and principal),
 * bound as `IDENTITY_RUNS` next to `RUNS`. {@link index!durableObjectRuns} takes a slot before a
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
 * @example
 * ```ts
 * import { IdentityRunsObject } from '@toolctx/edge/durable-objects';
 * // wrangler.jsonc: { "name": "IDENTITY_RUNS", "class_name": "IdentityRuns" }, and a new_sqlite_classes migration.
 * export class IdentityRuns extends IdentityRunsObject {}
 * ```
 */
export class IdentityRunsObject extends DurableObject {
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
   * run or session slot given back deletes the object's storage: an identity with no live run or
   * session keeps nothing (an emptied table would still be billed, one object for every identity ever seen).
   */
  async release(id: string, kind: SlotKind = 'run'): Promise<void> {
    if (kind === 'call') {
      this.leases.delete(id);
      return;
    }
    const kv = this.ctx.storage.kv;
    kv.delete(`${kinds[kind].prefix}${id}`);
    if ([...kv.list({ limit: 1 })].length === 0) await this.ctx.storage.deleteAll();
  }

  /** How many call leases have not lapsed; the lapsed ones are forgotten on the way. */
  private liveLeases(): number {
    const now = Date.now();
    for (const [id, lapsesAt] of this.leases) if (lapsesAt <= now) this.leases.delete(id);
    return this.leases.size;
  }
}
