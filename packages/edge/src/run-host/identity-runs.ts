import { DurableObject } from 'cloudflare:workers';
import type { Reply } from '../door-error.js';
import { limitExceeded } from './limits.js';

/**
 * Counts one identity's live runs, across all the run hosts: one object per identity
 * (`idFromName` of its tenant and principal), bound as `IDENTITY_RUNS` next to `RUNS`.
 * {@link index!durableObjectRuns} takes a slot before a run starts; the run host gives it back when the
 * run finishes, however it ends (a DELETE, the idle alarm).
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
   * Takes a slot for `runId`, unless the identity already has `max` live runs; `taken` is false
   * when `runId` held one already.
   */
  async acquire(runId: string, max: number): Promise<Reply<{ live: number; taken: boolean }>> {
    const kv = this.ctx.storage.kv;
    const key = `r:${runId}`;
    const live = [...kv.list({ prefix: 'r:' })].length;
    if (kv.get(key) !== undefined) return { ok: true, value: { live, taken: false } };
    if (live >= max)
      return limitExceeded(
        'live runs for this identity',
        max,
        'maxRunsPerIdentity',
        'End a run (DELETE /runs/:id) or let an idle one end',
        30,
      );
    kv.put(key, Date.now());
    return { ok: true, value: { live: live + 1, taken: true } };
  }

  /**
   * Gives back the slot of `runId`; giving it back twice changes nothing. The last slot given
   * back deletes the object's storage: an identity with no live run keeps nothing (an emptied
   * table would still be billed, one object for every identity ever seen).
   */
  async release(runId: string): Promise<void> {
    const kv = this.ctx.storage.kv;
    kv.delete(`r:${runId}`);
    if ([...kv.list({ prefix: 'r:', limit: 1 })].length === 0) await this.ctx.storage.deleteAll();
  }
}
