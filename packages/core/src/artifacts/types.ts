/**
 * A JSON value: what `JSON.parse` can return. Artifacts of this shape are stored as
 * `JSON.stringify(value)` in UTF-8 and come back parsed.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Who an artifact belongs to. Composed by the runtime from the run's identity and closed over:
 * a tool never names it. Every verb of an {@link ArtifactStore} takes it first.
 */
export interface ArtifactScope {
  tenant: string;
  principal: string;
  conversation: string;
}

/** An artifact's payload: text, bytes, or a JSON value (a string is always text). */
export type ArtifactData = string | Uint8Array | JsonValue;

/**
 * How the payload was put, and so how `get` gives it back: a string, a Uint8Array or the parsed
 * JSON value.
 */
export type ArtifactEncoding = 'text' | 'binary' | 'json';

/** The run facts an artifact was made under. Stamped by the runtime, never by the tool. */
export interface ArtifactOrigin {
  runId?: string;
  toolCallId?: string;
}

/**
 * What `put` takes. `digest` (sha-256 hex of the stored bytes) is optional: when given, a
 * mismatch refuses the put with an `integrity-failed` error and nothing is stored. `kind`, `label`
 * and `mediaType` must be text an HTTP header can carry, within `artifactFieldLimits`, and
 * `mediaType` a media type (`type/subtype; name=value`): otherwise `invalid-argument`, naming the field.
 */
export interface ArtifactPut {
  kind: string;
  data: ArtifactData;
  mediaType?: string;
  label?: string;
  ttlMs?: number;
  digest?: string;
  origin?: ArtifactOrigin;
}

/**
 * What `putStream` takes: the same fields as {@link ArtifactPut}, with the bytes as a stream.
 * A streamed artifact is always `binary`.
 */
export interface ArtifactStreamPut extends Omit<ArtifactPut, 'data'> {
  data: ReadableStream<Uint8Array>;
}

/**
 * What a store knows about an artifact. `digest` is always computed by the store (sha-256 hex of
 * the stored bytes) and verified on `get`; `createdAt`/`expiresAt` are epoch milliseconds.
 *
 * @example
 * ```ts
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * const store = createMemoryArtifactStore();
 * const scope = { tenant: 't', principal: 'p', conversation: 'c' };
 * const meta = await store.put(scope, { kind: 'note', data: 'hi' });
 * meta.bytes; // 2
 * ```
 */
export interface ArtifactMeta {
  ref: string;
  kind: string;
  mediaType: string;
  bytes: number;
  createdAt: number;
  label?: string;
  digest: string;
  expiresAt?: number;
  origin: ArtifactOrigin;
  encoding: ArtifactEncoding;
}

/**
 * The per-scope caps a store enforces. A put that would pass one is refused with a
 * `quota-exceeded` error and stores nothing.
 */
export interface ArtifactLimits {
  maxBytesPerScope?: number;
  maxCountPerScope?: number;
  maxArtifactBytes?: number;
}

/**
 * What a store declares it can do. A verb it cannot do is absent or throws an `unsupported`
 * error: never a silent no-op.
 *
 * @example
 * ```ts
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * createMemoryArtifactStore().capabilities.streaming; // true
 * ```
 */
export interface ArtifactStoreCapabilities {
  streaming: boolean;
  limits: Readonly<ArtifactLimits>;
}

/** One page of `list`. `cursor` is present when more may follow; pass it back as is. */
export interface ArtifactPage {
  artifacts: ArtifactMeta[];
  cursor?: string;
}

/**
 * The claim-check store contract, scope always first. `get` gives the payload back in the
 * encoding it was put with. Expired artifacts are invisible to `head`, `get` and `list`.
 * Unknown or malformed refs give `null` (or `false` from `delete`), never an error.
 *
 * @example
 * ```ts
 * import type { ArtifactStore } from '@toolctx/core';
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * const store: ArtifactStore = createMemoryArtifactStore();
 * const scope = { tenant: 't', principal: 'p', conversation: 'c' };
 * const { ref } = await store.put(scope, { kind: 'note', data: 'hello' });
 * (await store.get(scope, ref))?.data; // 'hello'
 * ```
 */
export interface ArtifactStore {
  readonly capabilities: ArtifactStoreCapabilities;
  /** Saves an artifact in `scope` and answers its meta, with a fresh `ref`. */
  put(scope: ArtifactScope, input: ArtifactPut): Promise<ArtifactMeta>;
  /** The meta of `ref` in `scope`, or `null` when it is absent, expired or another scope's. */
  head(scope: ArtifactScope, ref: string): Promise<ArtifactMeta | null>;
  /** The meta and data of `ref` in `scope`, or `null` as for `head`. */
  get(scope: ArtifactScope, ref: string): Promise<{ meta: ArtifactMeta; data: ArtifactData } | null>;
  /** Removes `ref` from `scope`; whether it was there. */
  delete(scope: ArtifactScope, ref: string): Promise<boolean>;
  /** One page of `scope`'s artifacts, at most `limit` (default 100); pass the page's `cursor` back for the next. */
  list(scope: ArtifactScope, options?: { cursor?: string; limit?: number }): Promise<ArtifactPage>;
  /** Optional: saves an artifact from a byte stream without holding it whole in memory. */
  putStream?(scope: ArtifactScope, input: ArtifactStreamPut): Promise<ArtifactMeta>;
  /** Optional: the meta of `ref` and its bytes as a stream, or `null` as for `head`. */
  getStream?(
    scope: ArtifactScope,
    ref: string,
  ): Promise<{ meta: ArtifactMeta; body: ReadableStream<Uint8Array> } | null>;
  /**
   * Optional: whether `ref` named an artifact of this scope that has since expired, so a
   * refusal can say "expired" rather than "missing". Best effort; stores that cannot tell omit it.
   */
  wasExpired?(scope: ArtifactScope, ref: string): Promise<boolean>;
}
