import { type ArtifactMeta, ToolctxError } from '@toolctx/core';
import { sha256Hex } from '@toolctx/core/ports';

// KV keys are at most 512 bytes and R2 keys 1024: a scope key longer than this is replaced by
// `#` and its sha-256. `#` never appears in a scope key (it is percent-encoded), so the two forms
// cannot meet, and two scopes share a part only if sha-256 collides.
const MAX_SCOPE_PART = 200;
// R2 keeps at most 8,192 bytes of metadata per object; leave room for the key and the HTTP metadata.
const MAX_META_JSON = 7_000;
// KV keeps at most 1,024 bytes of metadata per key.
const MAX_KV_METADATA = 1_024;
// The R2 custom metadata field that holds the meta copy `rebuildArtifactIndex` reads back.
export const META_FIELD = 'toolctx-artifact';

/** A KV value under a ref key once the artifact expired: lets `wasExpired` answer after cleanup. */
export interface Tombstone {
  expired: true;
}

/** KV metadata of a listing key: the whole meta when it fits in 1 KiB, else what caps need. */
export type ListingMetadata =
  | ArtifactMeta
  | { ref: string; bytes: number; createdAt: number; expiresAt?: number; partial: true };

/** Where one artifact lives: its bytes in R2, its meta in KV by ref and in creation order. */
export interface ArtifactKeys {
  object: string;
  ref: string;
  listing: string;
}

/** The scope's component of every key: its `scopeKey`, or that key's digest when too long. */
export async function scopePart(key: string): Promise<string> {
  return key.length <= MAX_SCOPE_PART ? key : `#${await sha256Hex(key)}`;
}

/** Creation order as a sortable string: 13 hex digits of the time, then the ref as tie-break. */
export function orderKey(meta: Pick<ArtifactMeta, 'createdAt' | 'ref'>): string {
  const time = Math.max(0, Math.floor(meta.createdAt)).toString(16).padStart(13, '0');
  return `${time}.${meta.ref}`;
}

export const refKey = (prefix: string, part: string, ref: string): string => `${prefix}ref/${part}/${ref}`;
export const listingPrefix = (prefix: string, part: string): string => `${prefix}list/${part}/`;

export function artifactKeys(
  prefix: string,
  part: string,
  meta: Pick<ArtifactMeta, 'createdAt' | 'ref'>,
): ArtifactKeys {
  return {
    object: `${prefix}${part}/${meta.ref}`,
    ref: refKey(prefix, part, meta.ref),
    listing: `${listingPrefix(prefix, part)}${orderKey(meta)}`,
  };
}

/**
 * Throws `invalid-argument` when the meta is too long for R2's metadata. Kind, label and media type
 * are bounded by core's artifactFieldLimits (about 2 KB as JSON at most, together), so only the
 * origin's ids of a direct put can reach this.
 */
export function assertMetaFits(meta: ArtifactMeta): string {
  const json = JSON.stringify(meta);
  if (new TextEncoder().encode(json).byteLength > MAX_META_JSON) {
    throw new ToolctxError(
      'invalid-argument',
      `The artifact's meta is too long to keep in R2's object metadata (at most ${MAX_META_JSON} bytes as JSON): kind, label and media type are within their limits, so shorten origin.runId and origin.toolCallId.`,
    );
  }
  return json;
}

export function listingMetadata(meta: ArtifactMeta, json: string): ListingMetadata {
  if (new TextEncoder().encode(json).byteLength <= MAX_KV_METADATA) return meta;
  const small: ListingMetadata = {
    ref: meta.ref,
    bytes: meta.bytes,
    createdAt: meta.createdAt,
    partial: true,
  };
  if (meta.expiresAt !== undefined) small.expiresAt = meta.expiresAt;
  return small;
}

// After cleanup an artifact's ref key says "expired" for a day, so wasExpired can still answer.
const TOMBSTONE_TTL_S = 86_400;

/**
 * KV's `expiration` for a key that should go at `at` (epoch ms): KV removes keys by its own clock
 * (real time, whatever clock the store was given) and only at least 60 s ahead. The store's own
 * expiry check stays the authority; this only makes sure KV lets go of the key by itself.
 */
export function kvExpiration(at: number): number {
  return Math.max(Math.ceil(at / 1_000), Math.ceil(Date.now() / 1_000) + 60);
}

/**
 * Writes an artifact's two KV keys: by ref (for head and get) and in creation order (for list).
 * An artifact with an expiry gives both keys a KV expiration, so KV drops them even if nobody
 * meets the artifact again: the listing key at expiry, the ref key a day later (wasExpired).
 */
export async function writeIndex(kv: KVNamespace, keys: ArtifactKeys, meta: ArtifactMeta): Promise<void> {
  const json = assertMetaFits(meta);
  const at = meta.expiresAt;
  const refOptions: KVNamespacePutOptions =
    at === undefined ? {} : { expiration: kvExpiration(at + TOMBSTONE_TTL_S * 1_000) };
  const listingOptions: KVNamespacePutOptions = { metadata: listingMetadata(meta, json) };
  if (at !== undefined) listingOptions.expiration = kvExpiration(at);
  // Both settle before a failure is thrown, so a rollback cannot race a write still in flight.
  const written = await Promise.allSettled([
    kv.put(keys.ref, json, refOptions),
    kv.put(keys.listing, json, listingOptions),
  ]);
  for (const result of written) if (result.status === 'rejected') throw result.reason;
}

/**
 * Writes the KV index of an artifact whose bytes are already in R2: by ref, then in creation
 * order. If either KV write fails, both KV keys and the R2 object are removed, so a failed put
 * leaves nothing visible, and the error says nothing was stored.
 */
export async function commitIndex(
  kv: KVNamespace,
  bucket: R2Bucket,
  keys: ArtifactKeys,
  meta: ArtifactMeta,
): Promise<void> {
  try {
    await writeIndex(kv, keys, meta);
  } catch (cause) {
    await Promise.allSettled([kv.delete(keys.ref), kv.delete(keys.listing), bucket.delete(keys.object)]);
    throw new ToolctxError(
      'internal',
      `Writing artifact ${meta.ref}'s index to KV failed, so its bytes were removed from R2 and nothing was stored. Retry the put.`,
      { retryable: true, cause },
    );
  }
}

/**
 * Removes an expired artifact: bytes first (R2 is the truth), then its listing, which is what the
 * scope's caps count; its ref key becomes a tombstone so wasExpired can still answer.
 */
export async function expireArtifact(kv: KVNamespace, bucket: R2Bucket, keys: ArtifactKeys): Promise<void> {
  await bucket.delete(keys.object);
  await kv.delete(keys.listing);
  await kv.put(keys.ref, JSON.stringify({ expired: true }), { expirationTtl: TOMBSTONE_TTL_S });
}

/** The meta copy kept in an R2 object's custom metadata; `digest` and `bytes` may be absent (streamed). */
export function customMetadataOf(meta: Partial<ArtifactMeta>): Record<string, string> {
  return { [META_FIELD]: JSON.stringify(meta) };
}

/** The meta copy read back from an R2 object, or null when the object is not an artifact. */
export function metaFromObject(
  object: R2Object,
): (Omit<ArtifactMeta, 'digest'> & { digest?: string }) | null {
  const raw = object.customMetadata?.[META_FIELD];
  if (raw === undefined) return null;
  try {
    const meta = JSON.parse(raw) as Partial<ArtifactMeta>;
    if (typeof meta.ref !== 'string' || typeof meta.kind !== 'string') return null;
    return { ...(meta as ArtifactMeta), bytes: object.size };
  } catch {
    return null;
  }
}

export function isTombstone(value: unknown): value is Tombstone {
  return typeof value === 'object' && value !== null && (value as Tombstone).expired === true;
}

export function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
