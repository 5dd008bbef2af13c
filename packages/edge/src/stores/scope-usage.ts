import { isArtifactExpired } from '@toolctx/core/ports';
import type { ListingMetadata } from './artifact-index.js';

/** What a scope holds: live artifacts counted from its KV listing, expired ones found on the way. */
export interface ScopeUsage {
  count: number;
  bytes: number;
  expired: ListingMetadata[];
}

/**
 * Counts a scope by listing its KV keys (1,000 a call) rather than keeping a usage record: KV has
 * no transactions, so a record would drift under concurrent puts, and the listing is the truth.
 * A note on KV's eventual consistency: a put or delete can take up to 60 s to show in a list read
 * at another location, and two concurrent puts both see the scope before either, so caps are
 * approximate across locations (they may be passed by what lands concurrently). Where a cap must
 * be exact, route a scope's puts through one Durable Object. Locally (workerd, Miniflare) KV is
 * consistent and the caps are exact for sequential puts.
 */
export async function scopeUsage(kv: KVNamespace, prefix: string, now: number): Promise<ScopeUsage> {
  const usage: ScopeUsage = { count: 0, bytes: 0, expired: [] };
  let cursor: string | undefined;
  for (;;) {
    const page = await kv.list<ListingMetadata>(cursor === undefined ? { prefix } : { prefix, cursor });
    for (const { metadata } of page.keys) {
      if (!metadata) continue;
      if (isArtifactExpired(metadata, now)) usage.expired.push(metadata);
      else {
        usage.count += 1;
        usage.bytes += metadata.bytes;
      }
    }
    if (page.list_complete) return usage;
    cursor = page.cursor;
  }
}
