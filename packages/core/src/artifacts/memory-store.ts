import type { ArtifactDriver } from './driver.js';
import { createArtifactStore } from './kernel.js';
import type { ArtifactLimits, ArtifactMeta, ArtifactStore } from './types.js';

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
  /** By ref, in insertion order: the meta and its place in list order. */
  entries: Map<string, { meta: ArtifactMeta; seq: number }>;
  nextSeq: number;
  bytes: number;
  /** Refs removed because they expired, so `read` can say so; the oldest are forgotten. */
  expired: Set<string>;
  /** The earliest `expiresAt` among the entries (Infinity when none expires), so a sweep that could find nothing is skipped. */
  soonest: number;
}

const MAX_REMEMBERED_EXPIRED = 1000;

/** A caller's own copy of a meta (its one nested object too), far cheaper than structuredClone. */
const copyMeta = (meta: ArtifactMeta): ArtifactMeta => ({ ...meta, origin: { ...meta.origin } });

/**
 * An {@link ArtifactStore} in memory, with streaming, expiry and per-scope caps. Good for tests,
 * a single process, or a page that needs no persistence. `list` pages in insertion order; its
 * cursor is the position after the last artifact shown, so puts and deletes between pages never
 * make an existing artifact appear twice or be skipped. A driver of the artifact-store kernel
 * (`createArtifactStore` of `@toolctx/core/ports`): each write is one synchronous step.
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
  const blobs = options.blobs ?? new Map<string, Uint8Array>();
  const scopes = new Map<string, ScopeState>();

  const stateOf = (scope: string): ScopeState => {
    let state = scopes.get(scope);
    if (!state) {
      state = {
        entries: new Map(),
        nextSeq: 1,
        bytes: 0,
        expired: new Set(),
        soonest: Number.POSITIVE_INFINITY,
      };
      scopes.set(scope, state);
    }
    return state;
  };

  const remove = (scope: string, ref: string, expired: boolean): ArtifactMeta | null => {
    const state = stateOf(scope);
    const entry = state.entries.get(ref);
    if (!entry) return null;
    state.entries.delete(ref);
    state.bytes -= entry.meta.bytes;
    blobs.delete(`${scope}/${ref}`);
    if (expired) {
      state.expired.add(ref);
      if (state.expired.size > MAX_REMEMBERED_EXPIRED) {
        state.expired.delete(state.expired.values().next().value as string);
      }
    }
    return copyMeta(entry.meta);
  };

  /** Drops the entries expired at `now`, so the caps count only live ones. */
  const sweep = (scope: string, state: ScopeState, now: number): void => {
    if (now < state.soonest) return;
    let soonest = Number.POSITIVE_INFINITY;
    for (const [ref, { meta }] of state.entries) {
      const at = meta.expiresAt ?? Number.POSITIVE_INFINITY;
      if (at <= now) remove(scope, ref, true);
      else if (at < soonest) soonest = at;
    }
    state.soonest = soonest;
  };

  const driver: ArtifactDriver = {
    async put(scope, meta, bytes, admission) {
      const state = stateOf(scope);
      sweep(scope, state, admission.now);
      admission.check({ count: state.entries.size, bytes: state.bytes }, meta.bytes);
      state.entries.set(meta.ref, { meta: copyMeta(meta), seq: state.nextSeq++ });
      state.bytes += meta.bytes;
      if (meta.expiresAt !== undefined && meta.expiresAt < state.soonest) state.soonest = meta.expiresAt;
      blobs.set(`${scope}/${meta.ref}`, bytes);
    },

    async read(scope, ref, withBytes) {
      const state = stateOf(scope);
      const entry = state.entries.get(ref);
      if (!entry) return state.expired.has(ref) ? 'expired' : null;
      const meta = copyMeta(entry.meta);
      if (!withBytes) return { meta };
      const bytes = blobs.get(`${scope}/${ref}`);
      return bytes ? { meta, bytes: new Uint8Array(bytes) } : { meta };
    },

    remove: async (scope, ref, expired) => remove(scope, ref, expired),

    async list(scope, { after = '0', limit }) {
      const from = Number(after);
      if (!Number.isSafeInteger(from)) return null;
      const metas: ArtifactMeta[] = [];
      let last = from;
      for (const { meta, seq } of stateOf(scope).entries.values()) {
        if (seq <= from) continue;
        if (metas.length === limit) return { metas, next: String(last) };
        metas.push(copyMeta(meta));
        last = seq;
      }
      return { metas };
    },
  };

  return createArtifactStore(driver, options);
}
