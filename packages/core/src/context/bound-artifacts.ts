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
import type { SettledGuard } from './settled-guard.js';

/**
 * The artifact store as a tool sees it: bound to its run's scope, which it cannot name, widen or
 * replace; `put` stamps the origin from the run's own facts. Once the call has ended, `put`,
 * `putStream` and `delete` reject with a `call-settled` ToolctxError, and a put still in flight
 * when it ended is deleted again: it leaves no artifact and no `artifact.put` event.
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
  /** The call's guard: writes refused once it has ended. Absent for the runtime's own writes (a spill). */
  guard?: SettledGuard;
  /** What takes the call's credential values out of the words a put describes its artifact with; none while it holds none. */
  redaction?: () => ((data: unknown) => unknown) | undefined;
  /** Told of each artifact the call saved (its meta) or deleted (its ref), as its event is filed. */
  note?: (change: ArtifactMeta | string) => void;
}

/**
 * Binds `store` to one call's scope and origin. Store-agnostic: the settled check wraps the
 * store's verbs, so every store gets it.
 */
export function bindArtifacts(store: ArtifactStore, binding: ArtifactBinding): ToolArtifacts {
  const { scope, log, toolCallId, parentId, guard } = binding;
  // Label, kind and media type are listed and sent as headers; the data is the tool's to choose.
  const described = <T extends { kind: string; mediaType?: string; label?: string }>(input: T): T => {
    const redaction = binding.redaction?.();
    if (!redaction) return input;
    const words: Partial<T> = { kind: input.kind } as Partial<T>;
    if (input.mediaType !== undefined) words.mediaType = input.mediaType;
    if (input.label !== undefined) words.label = input.label;
    const redacted = redaction(words) as Partial<T> & { mediaType?: string };
    // `[redacted]` is not a media type's parameter value, so a media type that held a secret
    // keeps only its type/subtype: the put is not refused for what redaction wrote into it.
    if (redacted.mediaType !== undefined && redacted.mediaType !== input.mediaType) {
      redacted.mediaType = redacted.mediaType.split(';')[0]?.trim();
    }
    return { ...input, ...redacted };
  };
  const origin = binding.runId === undefined ? { toolCallId } : { runId: binding.runId, toolCallId };
  const refuseIfEnded = (verb: string): void => {
    if (guard?.settled) throw guard.refusal(verb);
  };
  // A put that lands after its call ended is taken back before anyone hears of it.
  const saved = async (verb: string, save: () => Promise<ArtifactMeta>): Promise<ArtifactMeta> => {
    refuseIfEnded(verb);
    const meta = await save();
    if (guard?.settled) {
      await store.delete(scope, meta.ref).catch(() => {}); // the refusal below is the news either way
      throw guard.refusal(verb);
    }
    log.emit('artifact.put', { ref: meta.ref, kind: meta.kind, bytes: meta.bytes }, toolCallId, parentId);
    binding.note?.(meta);
    return meta;
  };
  const bound: ToolArtifacts = {
    put: (input) => saved('ctx.artifacts.put', () => store.put(scope, { ...described(input), origin })),
    head: (ref) => store.head(scope, ref),
    get: (ref) => store.get(scope, ref),
    delete: async (ref) => {
      refuseIfEnded('ctx.artifacts.delete');
      const deleted = await store.delete(scope, ref);
      if (deleted) {
        log.emit('artifact.deleted', { ref }, toolCallId, parentId);
        binding.note?.(ref);
      }
      return deleted;
    },
    list: (options) => store.list(scope, options),
  };
  if (store.putStream) {
    const putStream = store.putStream.bind(store);
    bound.putStream = (input) =>
      saved('ctx.artifacts.putStream', () => putStream(scope, { ...described(input), origin }));
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
