import type { ArtifactLimits, ArtifactScope, ArtifactStore } from '../artifacts/types.js';
import { sha256Hex } from '../canonical-json.js';
import type { SuiteCase, TestClock } from './suite-cases.js';

/**
 * Options of `describeArtifactStore`.
 *
 * @example
 * ```ts
 * import type { ArtifactStoreSuiteOptions } from '@toolctx/core/testing';
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * const options: ArtifactStoreSuiteOptions = {
 *   create: ({ clock }) => createMemoryArtifactStore({ clock }),
 *   capabilities: { streaming: true },
 * };
 * ```
 */
export interface ArtifactStoreSuiteOptions {
  /** A fresh, empty store per case; `clock` (epoch ms) must drive createdAt and expiry. */
  create: (options: { clock: () => number }) => ArtifactStore | Promise<ArtifactStore>;
  /** What the store under test claims; `retention` repeats the limits `create` configured. */
  capabilities: { streaming: boolean; retention?: SuiteRetention };
  /** Flips one stored byte of `ref`, so the suite can check that `get` notices. */
  corrupt?: (store: ArtifactStore, scope: ArtifactScope, ref: string) => Promise<void>;
  /** Case titles this store is known to fail: each must fail, or the suite fails. */
  expectedFailures?: string[];
}

/**
 * The retention limits a store under test was made with, and, for a store whose caps hold only
 * within a bound under concurrent puts (such as KV, which has no transactions), that bound:
 * `overshoot.count` artifacts and `overshoot.bytes` bytes past the caps at most. Absent, the caps
 * must hold exactly under any interleaving.
 *
 * @example
 * ```ts
 * import type { SuiteRetention } from '@toolctx/core/testing';
 * const retention: SuiteRetention = {
 *   maxBytesPerScope: 200_000,
 *   maxCountPerScope: 120,
 *   maxArtifactBytes: 150_000,
 *   overshoot: { count: 120, bytes: 200_000 },
 * };
 * ```
 */
export interface SuiteRetention extends Required<ArtifactLimits> {
  overshoot?: { count: number; bytes: number };
}

/** What each case file receives. */
export interface ArtifactCaseKit {
  options: ArtifactStoreSuiteOptions;
  fresh: () => Promise<{ store: ArtifactStore; clock: TestClock }>;
}

export type ArtifactCases = (kit: ArtifactCaseKit) => SuiteCase[];

export const scopeA: ArtifactScope = { tenant: 'tenant-a', principal: 'alice', conversation: 'conv-1' };
export const scopeB: ArtifactScope = { tenant: 'tenant-b', principal: 'bob', conversation: 'conv-1' };

export const allBytes = (): Uint8Array => Uint8Array.from({ length: 256 }, (_, i) => i);

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export const digestOf = (data: string | Uint8Array): Promise<string> => sha256Hex(data);

/** A stream that yields `chunks` one per pull. */
export function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

export async function readStream(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Every ref `list` shows for a scope, page by page. */
export async function listAll(store: ArtifactStore, scope: ArtifactScope, limit = 100): Promise<string[]> {
  const refs: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const listed = await store.list(scope, cursor === undefined ? { limit } : { cursor, limit });
    refs.push(...listed.artifacts.map((meta) => meta.ref));
    cursor = listed.cursor;
    if (cursor === undefined) return refs;
  }
  throw new Error('list never ended: the cursor keeps coming back');
}
