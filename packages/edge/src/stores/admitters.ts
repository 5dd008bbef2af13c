import {
  type ArtifactAdmissionAnswer,
  type ArtifactAdmissionRequest,
  admitToLedger,
  type LedgerEntry,
  LISTING_LAG_MS,
} from './admission-ledger.js';
import type { ArtifactAdmissions } from './artifact-admissions.js';

/** Where a store's admissions are decided, per scope part: its own ledgers, or a Durable Object. */
export interface Admitter {
  admit(part: string, request: ArtifactAdmissionRequest): Promise<ArtifactAdmissionAnswer>;
  release(part: string, ref: string): Promise<void>;
}

/** Ledgers kept by one store instance: exact for the puts that go through it. */
export function localAdmitter(): Admitter {
  const ledgers = new Map<string, Map<string, LedgerEntry>>();
  let prunedAt = Number.NEGATIVE_INFINITY;
  // Scopes nobody puts into again would keep their entries: every two minutes, all are pruned.
  const prune = (now: number) => {
    prunedAt = now;
    for (const [part, ledger] of ledgers) {
      for (const [ref, entry] of ledger) if (now - entry.admittedAt >= LISTING_LAG_MS) ledger.delete(ref);
      if (ledger.size === 0) ledgers.delete(part);
    }
  };
  return {
    async admit(part, request) {
      if (request.now - prunedAt >= LISTING_LAG_MS) prune(request.now);
      let ledger = ledgers.get(part);
      if (!ledger) {
        ledger = new Map();
        ledgers.set(part, ledger);
      }
      return admitToLedger(ledger, request);
    },
    async release(part, ref) {
      ledgers.get(part)?.delete(ref);
    },
  };
}

/** One {@link ArtifactAdmissions} object per scope, named by the store's prefix and the scope part. */
export function durableAdmitter(
  namespace: DurableObjectNamespace<ArtifactAdmissions>,
  prefix: string,
): Admitter {
  const stubOf = (part: string) => namespace.get(namespace.idFromName(`${prefix}${part}`));
  return {
    admit: (part, request) => stubOf(part).admit(request),
    release: (part, ref) => stubOf(part).release(ref),
  };
}
