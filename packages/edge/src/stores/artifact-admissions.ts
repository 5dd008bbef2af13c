import { DurableObject } from 'cloudflare:workers';
import {
  type ArtifactAdmissionAnswer,
  type ArtifactAdmissionRequest,
  admitToLedger,
  type LedgerEntry,
  LISTING_LAG_MS,
} from './admission-ledger.js';

// One storage key per admission, so a put writes one small value however full the scope is.
const ENTRY = 'admission:';
// Storage deletes take at most 128 keys a call.
const DELETE_BATCH = 128;

/**
 * A Durable Object that admits puts into one artifact scope, one at a time, so the KV+R2 store's
 * per-scope caps hold exactly however many Workers put at once. It keeps the admissions of the
 * last two minutes (what KV's listings may not show yet) and forgets them after; the KV listing
 * stays the record of what the scope holds, so an idle object keeps nothing. Bind it in
 * wrangler.jsonc (a `new_sqlite_classes` migration), export it from the Worker's main module and
 * pass the namespace to {@link index!createKvR2ArtifactStore} as `admissions`; the store names one
 * object per scope.
 *
 * @example
 * ```ts
 * import { createKvR2ArtifactStore, type ExampleWorkerEnv } from '@toolctx/edge';
 * import { ArtifactAdmissions } from '@toolctx/edge/durable-objects';
 * declare const env: ExampleWorkerEnv;
 * export { ArtifactAdmissions }; // bound as ADMISSIONS in wrangler.jsonc
 * const store = createKvR2ArtifactStore({
 *   kv: env.ARTIFACT_META,
 *   bucket: env.ARTIFACTS,
 *   admissions: env.ADMISSIONS,
 *   limits: { maxCountPerScope: 1_000 },
 * });
 * ```
 */
export class ArtifactAdmissions<E = unknown> extends DurableObject<E> {
  #ledger = new Map<string, LedgerEntry>();

  constructor(ctx: DurableObjectState, env: E) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const saved = await ctx.storage.list<LedgerEntry>({ prefix: ENTRY });
      this.#ledger = new Map([...saved.values()].map((entry) => [entry.ref, entry]));
    });
  }

  /** Admits the candidate if the scope has room, and remembers it: decided in one turn, before any await. */
  async admit(request: ArtifactAdmissionRequest): Promise<ArtifactAdmissionAnswer> {
    const before = [...this.#ledger.keys()];
    const answer = admitToLedger(this.#ledger, request);
    const forgotten = before.filter((ref) => !this.#ledger.has(ref));
    const writes: Promise<unknown>[] = [this.#forget(forgotten)];
    const entry = answer.admitted ? this.#ledger.get(request.candidate.ref) : undefined;
    if (entry) {
      writes.push(this.ctx.storage.put(`${ENTRY}${entry.ref}`, entry));
      writes.push(this.ctx.storage.setAlarm(Date.now() + LISTING_LAG_MS));
    }
    await Promise.all(writes);
    return answer;
  }

  /** Forgets an admission: its put failed, or the artifact was deleted. */
  async release(ref: string): Promise<void> {
    if (this.#ledger.delete(ref)) await this.#forget([ref]);
  }

  /** Two minutes after the last admission every entry is in KV's listings: keep nothing. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const stale = [...this.#ledger.values()].filter((entry) => now - entry.admittedAt >= LISTING_LAG_MS);
    for (const entry of stale) this.#ledger.delete(entry.ref);
    if (this.#ledger.size === 0) {
      await this.ctx.storage.deleteAll();
      return;
    }
    // Entries stamped by a store clock ahead of this one: look again later.
    await Promise.all([
      this.#forget(stale.map((entry) => entry.ref)),
      this.ctx.storage.setAlarm(now + LISTING_LAG_MS),
    ]);
  }

  async #forget(refs: string[]): Promise<void> {
    for (let i = 0; i < refs.length; i += DELETE_BATCH) {
      await this.ctx.storage.delete(refs.slice(i, i + DELETE_BATCH).map((ref) => `${ENTRY}${ref}`));
    }
  }
}
