import { DurableObject } from 'cloudflare:workers';
import type { Reply } from '../door-error.js';
import { limitExceeded } from './limits.js';

/** What an identity's slots are held for: its runs, or its MCP sessions (counted apart). */
export type SlotKind = 'run' | 'mcp-session';

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
};

/**
 * Counts one identity's live runs and MCP sessions, across all the run hosts and session objects:
 * one object per identity (`idFromName` of its tenant and principal), bound as `IDENTITY_RUNS`
 * next to `RUNS`. {@link index!durableObjectRuns} takes a slot before a run starts and the run
 * host gives it back when the run finishes, however it ends (a DELETE, the idle alarm); with
 * `sessionLimit`, {@link index!mcpFetch} takes one before a session starts and the session object
 * gives it back when the session is closed or lapses.
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
   * that kind; `taken` is false when `id` held one already.
   */
  async acquire(
    id: string,
    max: number,
    kind: SlotKind = 'run',
  ): Promise<Reply<{ live: number; taken: boolean }>> {
    const kv = this.ctx.storage.kv;
    const { prefix, what, option, advice, retryAfterSeconds } = kinds[kind];
    const key = `${prefix}${id}`;
    const live = [...kv.list({ prefix })].length;
    if (kv.get(key) !== undefined) return { ok: true, value: { live, taken: false } };
    if (live >= max) return limitExceeded(what, max, option, advice, retryAfterSeconds);
    kv.put(key, Date.now());
    return { ok: true, value: { live: live + 1, taken: true } };
  }

  /**
   * Gives back the slot of `kind` held for `id`; giving it back twice changes nothing. The last
   * slot given back deletes the object's storage: an identity with no live run or session keeps
   * nothing (an emptied table would still be billed, one object for every identity ever seen).
   */
  async release(id: string, kind: SlotKind = 'run'): Promise<void> {
    const kv = this.ctx.storage.kv;
    kv.delete(`${kinds[kind].prefix}${id}`);
    if ([...kv.list({ limit: 1 })].length === 0) await this.ctx.storage.deleteAll();
  }
}
