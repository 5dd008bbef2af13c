import type {
  ArtifactData,
  ArtifactMeta,
  ArtifactPage,
  ArtifactPut,
  ArtifactScope,
  ArtifactStore,
  ArtifactStreamPut,
} from '../artifacts/types.js';
import { ToolctxError } from '../errors.js';
import type { EventLog } from '../events/event-log.js';

/**
 * The artifact store as a tool sees it: bound to its run's scope, which it cannot name, widen or
 * replace; `put` stamps the origin from the run's own facts.
 */
export interface ToolArtifacts {
  /** Saves an artifact in the run's scope, its origin stamped from the call. */
  put(input: Omit<ArtifactPut, 'origin'>): Promise<ArtifactMeta>;
  /** The meta of `ref`, or `null` when it is absent, expired or another scope's. */
  head(ref: string): Promise<ArtifactMeta | null>;
  /** The meta and data of `ref`, or `null` as for `head`. */
  get(ref: string): Promise<{ meta: ArtifactMeta; data: ArtifactData } | null>;
  /** Removes `ref`; whether it was there. */
  delete(ref: string): Promise<boolean>;
  /** One page of the scope's artifacts; pass the page's `cursor` back for the next. */
  list(options?: { cursor?: string; limit?: number }): Promise<ArtifactPage>;
  /** Present when the store streams. */
  putStream?(input: Omit<ArtifactStreamPut, 'origin'>): Promise<ArtifactMeta>;
  /** Present when the store streams: the meta of `ref` and its bytes as a stream. */
  getStream?(ref: string): Promise<{ meta: ArtifactMeta; body: ReadableStream<Uint8Array> } | null>;
}

/** Where a bound store files its events and stamps its origin. */
export interface ArtifactBinding {
  scope: ArtifactScope;
  runId: string | undefined;
  toolCallId: string;
  parentId: string | undefined;
  log: EventLog;
}

/** Binds `store` to one call's scope and origin. */
export function bindArtifacts(store: ArtifactStore, binding: ArtifactBinding): ToolArtifacts {
  const { scope, log, toolCallId, parentId } = binding;
  const origin = binding.runId === undefined ? { toolCallId } : { runId: binding.runId, toolCallId };
  const filed = (meta: ArtifactMeta): ArtifactMeta => {
    log.emit('artifact.put', { ref: meta.ref, kind: meta.kind, bytes: meta.bytes }, toolCallId, parentId);
    return meta;
  };
  const bound: ToolArtifacts = {
    put: async (input) => filed(await store.put(scope, { ...input, origin })),
    head: (ref) => store.head(scope, ref),
    get: (ref) => store.get(scope, ref),
    delete: async (ref) => {
      const deleted = await store.delete(scope, ref);
      if (deleted) log.emit('artifact.deleted', { ref }, toolCallId, parentId);
      return deleted;
    },
    list: (options) => store.list(scope, options),
  };
  if (store.putStream) {
    const putStream = store.putStream.bind(store);
    bound.putStream = async (input) => filed(await putStream(scope, { ...input, origin }));
  }
  if (store.getStream) {
    const getStream = store.getStream.bind(store);
    bound.getStream = (ref) => getStream(scope, ref);
  }
  return bound;
}

function noStore(): never {
  throw new ToolctxError(
    'no-store',
    'No artifact store is attached. Pass one to createRuntime({ artifacts }), such as createMemoryArtifactStore(); check ctx.hasArtifacts before using ctx.artifacts.',
  );
}

/** The fail-closed stand-in a tool gets when the runtime has no store: every verb throws. */
export const missingArtifacts: ToolArtifacts = Object.freeze({
  put: async () => noStore(),
  head: async () => noStore(),
  get: async () => noStore(),
  delete: async () => noStore(),
  list: async () => noStore(),
});
