import { type ArtifactMeta, type ArtifactStreamPut, ToolctxError } from '@toolctx/core';
import { createArtifactMeta } from '@toolctx/core/ports';

const DIGEST = /^[0-9a-f]{64}$/;

/** A streamed artifact's meta before its bytes are known: everything but `bytes` and `digest`. */
export type StreamSkeleton = Omit<ArtifactMeta, 'bytes' | 'digest'>;

/**
 * Checks a streamed put's fields before the first byte moves, with the same rules and messages
 * as `put` (core's `createArtifactMeta`, given no bytes and no digest), and the supplied digest's
 * form; the digest itself can only be compared once the stream has ended.
 */
export async function streamSkeleton(
  input: ArtifactStreamPut,
  ref: string,
  now: number,
): Promise<StreamSkeleton> {
  if (input === null || typeof input !== 'object') {
    throw new ToolctxError('invalid-argument', 'An artifact putStream needs an object { kind, data }.');
  }
  const { data: _data, digest, ...fields } = input;
  if (digest !== undefined && !(typeof digest === 'string' && DIGEST.test(digest.toLowerCase()))) {
    throw new ToolctxError(
      'invalid-argument',
      `Artifact "digest" must be 64 hex digits of sha-256, got "${String(digest)}".`,
    );
  }
  const {
    bytes: _bytes,
    digest: _empty,
    ...skeleton
  } = await createArtifactMeta(fields, {
    ref,
    bytes: new Uint8Array(0),
    encoding: 'binary',
    now,
  });
  return skeleton;
}

/** Throws `integrity-failed` when a supplied digest does not match the streamed bytes. */
export function checkStreamDigest(supplied: string | undefined, computed: string): void {
  if (supplied === undefined) return;
  const wanted = supplied.toLowerCase();
  if (wanted !== computed) {
    throw new ToolctxError(
      'integrity-failed',
      `The artifact's bytes do not match the supplied digest (supplied ${wanted}, computed ${computed}); nothing was stored. Send the digest of exactly the bytes you put, or omit it.`,
      { details: { supplied: wanted, computed } },
    );
  }
}
