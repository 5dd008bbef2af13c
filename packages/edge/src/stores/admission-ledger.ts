import type { ArtifactLimits } from '@toolctx/core';
import { admitToScope, isArtifactExpired, type ScopeTotals } from '@toolctx/core/ports';

/** One artifact as the per-scope caps count it. */
export interface CountedArtifact {
  ref: string;
  bytes: number;
  expiresAt?: number;
}

/** An admission granted, and when (the store's clock, epoch ms). */
export interface LedgerEntry extends CountedArtifact {
  admittedAt: number;
}

/**
 * One put asking {@link durable-objects!ArtifactAdmissions} to enter a scope: what the scope's KV
 * listing showed, the newcomer, the store's limits and its clock's time.
 *
 * @example
 * ```ts
 * import type { ArtifactAdmissionRequest } from '@toolctx/edge/durable-objects';
 * const request: ArtifactAdmissionRequest = {
 *   listed: [{ ref: 'art_1', bytes: 10 }],
 *   candidate: { ref: 'art_2', bytes: 20 },
 *   limits: { maxCountPerScope: 100 },
 *   now: Date.now(),
 * };
 * ```
 */
export interface ArtifactAdmissionRequest {
  listed: CountedArtifact[];
  candidate: CountedArtifact;
  limits: ArtifactLimits;
  now: number;
}

/**
 * What {@link durable-objects!ArtifactAdmissions} answers: admitted, or refused with the totals the
 * caps were checked against (for the store's `quota-exceeded` message).
 */
export type ArtifactAdmissionAnswer = { admitted: true } | { admitted: false; totals: ScopeTotals };

// KV shows a write in the lists of every location within about 60 s; an admission is remembered
// twice that long, after which the listing a put reads is sure to hold it.
export const LISTING_LAG_MS = 120_000;

/**
 * Admits `candidate` if the scope, as its listing shows it plus every admission granted since
 * (which the listing may not show yet), has room; records it in `ledger` when it does. Runs
 * without an await, so whoever owns the ledger (a store instance, or a Durable Object for all of
 * them) decides one put at a time: two puts can never both take the last slot.
 */
export function admitToLedger(
  ledger: Map<string, LedgerEntry>,
  request: ArtifactAdmissionRequest,
): ArtifactAdmissionAnswer {
  const { listed, candidate, limits, now } = request;
  for (const [ref, entry] of ledger) {
    if (isArtifactExpired(entry, now) || now - entry.admittedAt >= LISTING_LAG_MS) ledger.delete(ref);
  }
  const held = new Map<string, number>();
  for (const item of listed) if (!isArtifactExpired(item, now)) held.set(item.ref, item.bytes);
  for (const entry of ledger.values()) held.set(entry.ref, entry.bytes);
  let bytes = 0;
  for (const size of held.values()) bytes += size;
  const totals = { count: held.size, bytes };
  try {
    admitToScope(limits, totals, candidate.bytes);
  } catch {
    return { admitted: false, totals };
  }
  const entry: LedgerEntry = { ref: candidate.ref, bytes: candidate.bytes, admittedAt: now };
  if (candidate.expiresAt !== undefined) entry.expiresAt = candidate.expiresAt;
  ledger.set(candidate.ref, entry);
  return { admitted: true };
}
