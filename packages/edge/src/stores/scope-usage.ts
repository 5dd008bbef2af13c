import { isArtifactExpired } from '@toolctx/core/ports';
import type { ArtifactAdmissions } from './artifact-admissions.js';
import type { ListingMetadata } from './artifact-index.js';

/** What a scope holds: live artifacts counted from its KV listing, expired ones found on the way. */
export interface ScopeUsage {
  count: number;
  bytes: number;
  live: ListingMetadata[];
  expired: ListingMetadata[];
}

/**
 * Counts a scope by listing its KV keys (1,000 a call) rather than keeping a usage record: KV has
 * no transactions, so a record would drift under concurrent puts, and the listing is the truth.
 * A put or delete can take up to 60 s to show in a list read at another location, and concurrent
 * puts all read the scope before any of them lands, so the store admits against this listing
 * plus the admissions granted since (admission-ledger.ts), kept by the store instance or, exact
 * across Workers, by an {@link ArtifactAdmissions} Durable Object.
 */
export async function scopeUsage(kv: KVNamespace, prefix: string, now: number): Promise<ScopeUsage> {
  const usage: ScopeUsage = { count: 0, bytes: 0, live: [], expired: [] };
  let cursor: string | undefined;
  for (;;) {
    const page = await kv.list<ListingMetadata>(cursor === undefined ? { prefix } : { prefix, cursor });
    for (const { metadata } of page.keys) {
      if (!metadata) continue;
      if (isArtifactExpired(metadata, now)) usage.expired.push(metadata);
      else {
        usage.count += 1;
        usage.bytes += metadata.bytes;
        usage.live.push(metadata);
      }
    }
    if (page.list_complete) return usage;
    cursor = page.cursor;
  }
}
