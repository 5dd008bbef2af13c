import { DurableObject } from 'cloudflare:workers';
import {
  type AdmissionAnswer,
  type AdmissionRequest,
  admitToLedger,
  type LedgerEntry,
} from './admission-ledger.js';

const LEDGER = 'ledger';

/**
 * A Durable Object that admits puts into one artifact scope, one at a time, so the KV+R2 store's
 * per-scope caps hold exactly however many Workers put at once. It keeps the admissions of the
 * last two minutes (what KV's listings may not show yet); the listing is still the record of what
 * the scope holds. Bind it in wrangler.jsonc (a `new_sqlite_classes` migration), export it from
 * the Worker's main module and pass the namespace to {@link createKvR2ArtifactStore} as
 * `admissions`; the store names one object per scope.
 *
 * @example
 * ```ts
 * import { ArtifactAdmissions, createKvR2ArtifactStore } from '@toolctx/edge';
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
      const saved = (await ctx.storage.get<LedgerEntry[]>(LEDGER)) ?? [];
      this.#ledger = new Map(saved.map((entry) => [entry.ref, entry]));
    });
  }

  /** Admits the candidate if the scope has room, and remembers it; the decision and the save happen in one turn. */
  async admit(request: AdmissionRequest): Promise<AdmissionAnswer> {
    const answer = admitToLedger(this.#ledger, request);
    await this.#save();
    return answer;
  }

  /** Forgets an admission: its put failed, or the artifact was deleted. */
  async release(ref: string): Promise<void> {
    if (this.#ledger.delete(ref)) await this.#save();
  }

  #save(): Promise<void> {
    return this.ctx.storage.put(LEDGER, [...this.#ledger.values()]);
  }
}
