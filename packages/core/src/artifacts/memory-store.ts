import { hexOf, sameDigest, sha256 } from '../canonical-json.js';
import { ToolctxError } from '../errors.js';
import { decodeArtifactData, encodeArtifactData } from './encoding.js';
import { admitArtifactSize, admitToScope, checkArtifactLimits } from './limits.js';
import { checkPut, corruptArtifact, isArtifactExpired, metaOf } from './meta.js';
import { newRef } from './ref.js';
import { scopeKey } from './scope-key.js';
import { readAllBytes, streamBytes } from './stream-bytes.js';
import type { ArtifactLimits, ArtifactMeta, ArtifactPut, ArtifactScope, ArtifactStore } from './types.js';

/** Options of {@link createMemoryArtifactStore}. */
export interface MemoryArtifactStoreOptions {
  /** Epoch milliseconds; `Date.now` by default. Tests pass a fake clock to drive expiry. */
  clock?: () => number;
  limits?: ArtifactLimits;
  /**
   * Where payload bytes live, keyed `<scopeKey(scope)>/<ref>`. Pass your own map to share bytes
   * between store instances or to inspect (or, in tests, corrupt) them.
   */
  blobs?: Map<string, Uint8Array>;
}

interface ScopeState {
  /** `scopeKey` of the scope: the first part of its blobs' keys. */
  key: string;
  /** By ref: the meta, its place in list order, its key in `blobs` (made once, at put), and its digest's bytes. */
  entries: Map<string, Entry>;
  nextSeq: number;
  bytes: number;
  expired: Set<string>;
  /** The earliest `expiresAt` among the entries (Infinity when none expires), so a sweep that could find nothing is skipped. */
  soonest: number;
}

interface Entry {
  meta: ArtifactMeta;
  seq: number;
  blob: string;
  /** `meta.digest` as bytes: a get compares the digest it makes with it, with no hex made. */
  sha: ArrayBuffer;
}

const CURSOR = /^cur_([0-9a-z]{1,11})$/;

/** A caller's own copy of a meta (its one nested object too), far cheaper than structuredClone. */
const copyMeta = (meta: ArtifactMeta): ArtifactMeta => ({ ...meta, origin: { ...meta.origin } });
const MAX_REMEMBERED_EXPIRED = 1000;

/**
 * An {@link ArtifactStore} in memory, with streaming, expiry and per-scope caps. Good for tests,
 * a single process, or a page that needs no persistence. `list` pages in insertion order; its
 * cursor is the position after the last artifact shown, so puts and deletes between pages never
 * make an existing artifact appear twice or be skipped.
 *
 * @example
 * ```ts
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * const store = createMemoryArtifactStore({ limits: { maxBytesPerScope: 10_000_000 } });
 * const scope = { tenant: 't', principal: 'p', conversation: 'c' };
 * const meta = await store.put(scope, { kind: 'report', data: { rows: [1, 2] } });
 * (await store.get(scope, meta.ref))?.data; // { rows: [1, 2] }
 * ```
 */
export function createMemoryArtifactStore(options: MemoryArtifactStoreOptions = {}): ArtifactStore {
  const clock = options.clock ?? Date.now;
  const limits = checkArtifactLimits(options.limits ?? {});
  const blobs = options.blobs ?? new Map<string, Uint8Array>();
  const scopes = new Map<string, ScopeState>();

  // The last scope seen, field by field: a run asks about one scope over and over, and equal
  // fields give the same key, so it is encoded once.
  let last: { tenant: string; principal: string; conversation: string; key: string } | undefined;
  const keyOf = (scope: ArtifactScope): string => {
    if (
      last &&
      scope !== null &&
      typeof scope === 'object' &&
      scope.tenant === last.tenant &&
      scope.principal === last.principal &&
      scope.conversation === last.conversation
    ) {
      return last.key;
    }
    const key = scopeKey(scope);
    last = { tenant: scope.tenant, principal: scope.principal, conversation: scope.conversation, key };
    return key;
  };

  const stateOf = (scope: ArtifactScope): ScopeState => {
    const key = keyOf(scope);
    let state = scopes.get(key);
    if (!state) {
      state = {
        key,
        entries: new Map(),
        nextSeq: 1,
        bytes: 0,
        expired: new Set(),
        soonest: Number.POSITIVE_INFINITY,
      };
      scopes.set(key, state);
    }
    return state;
  };

  const remove = (state: ScopeState, ref: string): void => {
    const entry = state.entries.get(ref);
    if (!entry) return;
    state.entries.delete(ref);
    state.bytes -= entry.meta.bytes;
    blobs.delete(entry.blob);
  };

  const expire = (state: ScopeState, ref: string): void => {
    remove(state, ref);
    state.expired.add(ref);
    if (state.expired.size > MAX_REMEMBERED_EXPIRED) {
      state.expired.delete(state.expired.values().next().value as string);
    }
  };

  const sweep = (state: ScopeState, now: number): void => {
    if (now < state.soonest) return;
    let soonest = Number.POSITIVE_INFINITY;
    for (const [ref, { meta }] of state.entries) {
      if (isArtifactExpired(meta, now)) expire(state, ref);
      else if (meta.expiresAt !== undefined && meta.expiresAt < soonest) soonest = meta.expiresAt;
    }
    state.soonest = soonest;
  };

  /** The live entry for `ref`, or null; an expired one is dropped on sight. */
  const live = (scope: ArtifactScope, ref: string) => {
    const state = stateOf(scope);
    // Only refs this store made are keys, so a malformed one finds nothing without a pattern test.
    const entry = state.entries.get(ref);
    if (!entry) return null;
    if (isArtifactExpired(entry.meta, clock())) {
      expire(state, ref);
      return null;
    }
    return { state, entry };
  };

  const store = async (
    scope: ArtifactScope,
    input: Omit<ArtifactPut, 'data'>,
    streamed?: Uint8Array,
  ): Promise<ArtifactMeta> => {
    // Encoded here rather than by the caller: one async step fewer on every put.
    const { bytes, encoding } = streamed
      ? { bytes: streamed, encoding: 'binary' as const }
      : encodeArtifactData((input as ArtifactPut)?.data);
    const state = stateOf(scope);
    admitArtifactSize(limits, bytes.byteLength);
    // createArtifactMeta's two halves, so the digest's bytes are kept for the gets.
    const stored = { bytes, encoding, ref: newRef(), now: clock() };
    const checked = checkPut(input, encoding);
    const sha = await sha256(bytes);
    const meta = metaOf(input, stored, checked, hexOf(sha));
    // Checked after the await, right before storing, so concurrent puts cannot both slip under a cap.
    sweep(state, clock());
    admitToScope(limits, { count: state.entries.size, bytes: state.bytes }, bytes.byteLength);
    const blob = `${state.key}/${meta.ref}`;
    state.entries.set(meta.ref, { meta, seq: state.nextSeq++, blob, sha });
    state.bytes += bytes.byteLength;
    if (meta.expiresAt !== undefined && meta.expiresAt < state.soonest) state.soonest = meta.expiresAt;
    blobs.set(blob, bytes);
    return copyMeta(meta);
  };

  /** The caller's own copy of the bytes and meta, once the bytes are checked against the digest. */
  const readVerified = async (scope: ArtifactScope, ref: string) => {
    const found = live(scope, ref);
    if (!found) return null;
    const { entry } = found;
    const bytes = new Uint8Array(blobs.get(entry.blob) ?? new Uint8Array());
    const sha = await sha256(bytes);
    if (!sameDigest(sha, entry.sha)) throw corruptArtifact(entry.meta, hexOf(sha));
    return { meta: copyMeta(entry.meta), bytes };
  };

  return {
    capabilities: Object.freeze({ streaming: true, limits }),

    put: (scope, input) => store(scope, input),

    async head(scope, ref) {
      const found = live(scope, ref);
      return found ? copyMeta(found.entry.meta) : null;
    },

    async get(scope, ref) {
      const read = await readVerified(scope, ref);
      return read ? { meta: read.meta, data: decodeArtifactData(read.meta.encoding, read.bytes) } : null;
    },

    async delete(scope, ref) {
      const found = live(scope, ref);
      if (!found) return false;
      remove(found.state, ref);
      return true;
    },

    async list(scope, { cursor, limit = 100 } = {}) {
      if (!(Number.isSafeInteger(limit) && limit >= 1)) {
        throw new ToolctxError('invalid-argument', `list "limit" must be a whole number ≥ 1, got ${limit}.`);
      }
      let after = 0;
      if (cursor !== undefined) {
        const match = typeof cursor === 'string' ? CURSOR.exec(cursor) : null;
        if (!match) {
          throw new ToolctxError(
            'invalid-argument',
            `The list cursor ${JSON.stringify(cursor)} was not made by this store. Pass the cursor of the previous page as is, or none to start over.`,
          );
        }
        after = Number.parseInt(match[1]!, 36);
      }
      const state = stateOf(scope);
      sweep(state, clock());
      const artifacts: ArtifactMeta[] = [];
      let last = after;
      let more = false;
      for (const { meta, seq } of state.entries.values()) {
        if (seq <= after) continue;
        if (artifacts.length === limit) {
          more = true;
          break;
        }
        artifacts.push(copyMeta(meta));
        last = seq;
      }
      return more ? { artifacts, cursor: `cur_${last.toString(36)}` } : { artifacts };
    },

    async putStream(scope, input) {
      const bytes = await readAllBytes(input?.data, limits.maxArtifactBytes);
      return store(scope, input, bytes);
    },

    async getStream(scope, ref) {
      const read = await readVerified(scope, ref);
      return read ? { meta: read.meta, body: streamBytes(read.bytes) } : null;
    },

    async wasExpired(scope, ref) {
      return stateOf(scope).expired.has(ref);
    },
  };
}
