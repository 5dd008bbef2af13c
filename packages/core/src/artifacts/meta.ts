import { sha256Hex } from '../canonical-json.js';
import { ToolctxError } from '../errors.js';
import { defaultMediaType } from './encoding.js';
import { assertArtifactField } from './fields.js';
import type { ArtifactEncoding, ArtifactMeta, ArtifactPut } from './types.js';

const DIGEST = /^[0-9a-f]{64}$/;

function invalid(message: string): ToolctxError {
  return new ToolctxError('invalid-argument', message);
}

function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw invalid(`Artifact "${field}" must be a non-empty string when given, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * Checks a put's fields and builds the meta a store keeps: the digest is computed from `bytes`
 * (and compared with a supplied one: a mismatch throws `integrity-failed`), `createdAt` is the given time,
 * `expiresAt` is `createdAt + ttlMs`. For store implementers; `put` callers never need it.
 *
 * @example
 * ```ts
 * import { createArtifactMeta, encodeArtifactData, newRef } from '@toolctx/core/ports';
 * const { encoding, bytes } = encodeArtifactData('hi');
 * const meta = await createArtifactMeta({ kind: 'note' }, { ref: newRef(), bytes, encoding, createdAt: Date.now() });
 * ```
 */
export function createArtifactMeta(
  input: Omit<ArtifactPut, 'data'>,
  stored: { ref: string; bytes: Uint8Array; encoding: ArtifactEncoding; createdAt: number },
): Promise<ArtifactMeta> {
  // A promise chain rather than an async function: one async frame fewer on every store's put.
  // A refused field still rejects, as it did from an async function.
  let checked: CheckedPut;
  try {
    checked = checkPut(input, stored.encoding);
  } catch (error) {
    return Promise.reject(error);
  }
  return sha256Hex(stored.bytes).then((digest) =>
    metaOf(input, stored, checked, stored.bytes.byteLength, digest),
  );
}

/** A put's optional fields, checked before the digest is made. */
export interface CheckedPut {
  mediaType: string;
  label: string | undefined;
  /** The supplied digest, lowercase: 64 hex digits. */
  supplied: string | undefined;
  ttlMs: number | undefined;
}

/** The first half of {@link createArtifactMeta}: throws `invalid-argument` for a refused field. */
export function checkPut(input: Omit<ArtifactPut, 'data'>, encoding: ArtifactEncoding): CheckedPut {
  if (input === null || typeof input !== 'object')
    throw invalid('An artifact put needs an object { kind, data }.');
  const fields = input as unknown as Record<string, unknown>;
  if (typeof input.kind !== 'string' || input.kind === '') {
    throw invalid(
      `Artifact "kind" must be a non-empty string such as 'report', got ${JSON.stringify(input.kind)}.`,
    );
  }
  // Checked here, where every store's put passes, so no store keeps what a door cannot serve.
  assertArtifactField('kind', input.kind);
  const given = optionalString(fields, 'mediaType');
  if (given !== undefined) assertArtifactField('mediaType', given);
  const mediaType = given ?? defaultMediaType(encoding);
  const label = optionalString(fields, 'label');
  if (label !== undefined) assertArtifactField('label', label);
  const givenDigest = optionalString(fields, 'digest');
  const supplied = givenDigest?.toLowerCase();
  if (supplied !== undefined && !DIGEST.test(supplied))
    throw invalid(`Artifact "digest" must be 64 hex digits of sha-256, got "${givenDigest}".`);
  const { ttlMs } = input;
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0)) {
    throw invalid(`Artifact "ttlMs" must be a positive number of milliseconds, got ${String(ttlMs)}.`);
  }
  return { mediaType, label, supplied, ttlMs };
}

/** The second half of {@link createArtifactMeta}, given the size and digest of the bytes. */
export function metaOf(
  input: Omit<ArtifactPut, 'data'>,
  stored: { ref: string; encoding: ArtifactEncoding; createdAt: number },
  { mediaType, label, supplied, ttlMs }: CheckedPut,
  size: number,
  digest: string,
): ArtifactMeta {
  if (supplied !== undefined && supplied !== digest) {
    throw new ToolctxError(
      'integrity-failed',
      `The artifact's bytes do not match the supplied digest (supplied ${supplied}, computed ${digest}); nothing was stored. Send the digest of exactly the bytes you put, or omit it.`,
      { details: { supplied, computed: digest } },
    );
  }
  const origin: ArtifactMeta['origin'] = {};
  if (typeof input.origin?.runId === 'string') origin.runId = input.origin.runId;
  if (typeof input.origin?.toolCallId === 'string') origin.toolCallId = input.origin.toolCallId;
  const meta: ArtifactMeta = {
    ref: stored.ref,
    kind: input.kind,
    mediaType,
    bytes: size,
    createdAt: stored.createdAt,
    digest,
    origin,
    encoding: stored.encoding,
  };
  if (label !== undefined) meta.label = label;
  if (ttlMs !== undefined) meta.expiresAt = stored.createdAt + ttlMs;
  return meta;
}

/**
 * Throws `integrity-failed` unless `bytes` hash to `meta.digest`: what every store does on `get`.
 *
 * @example
 * ```ts
 * import type { ArtifactMeta } from '@toolctx/core';
 * import { verifyArtifactBytes } from '@toolctx/core/ports';
 * declare const meta: ArtifactMeta;
 * declare const bytes: Uint8Array;
 * await verifyArtifactBytes(meta, bytes); // throws when a stored byte changed
 * ```
 */
export function verifyArtifactBytes(meta: ArtifactMeta, bytes: Uint8Array): Promise<void> {
  return sha256Hex(bytes).then((actual) => {
    if (actual !== meta.digest) throw corruptArtifact(meta, actual);
  });
}

/** The error of a get whose bytes hash to `actual`, not to the digest they were put with. */
export function corruptArtifact(meta: ArtifactMeta, actual: string): ToolctxError {
  return new ToolctxError(
    'integrity-failed',
    `Artifact ${meta.ref} is corrupt: its stored bytes no longer match its digest. Put it again from the source.`,
    { details: { ref: meta.ref, expected: meta.digest, actual } },
  );
}

/**
 * Whether an artifact has expired at `now` (epoch ms): from `expiresAt` on, it is invisible.
 *
 * @example
 * ```ts
 * import { isArtifactExpired } from '@toolctx/core/ports';
 * isArtifactExpired({ expiresAt: 10 }, 10); // true
 * ```
 */
export function isArtifactExpired(meta: Pick<ArtifactMeta, 'expiresAt'>, now: number): boolean {
  return meta.expiresAt !== undefined && now >= meta.expiresAt;
}
