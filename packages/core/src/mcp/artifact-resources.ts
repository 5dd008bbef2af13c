// A runtime's artifacts as MCP resources: the `toolctx://artifacts/{ref}` template (listed and
// read in the caller's own scope), and the `resource_link` items a tool result carries for the
// artifacts its call saved. Registered with the SDK's own API, so resources a user adds to the
// same server sit beside them.
import {
  type CallToolResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  type ResourceLink,
  ResourceNotFoundError,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { encodeArtifactData } from '../artifacts/encoding.js';
import { isRef } from '../artifacts/ref.js';
import type { ArtifactMeta, ArtifactScope, ArtifactStore } from '../artifacts/types.js';
import type { Identity } from '../context/types.js';
import type { EventSink } from '../events/event-log.js';
import type { SavedArtifact } from '../runtime/call-book.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { artifactScope, identified } from '../runtime/run-facts.js';

/** What an MCP request handler is given besides its request. */
export type McpExtra = ServerContext;

/** Options of the artifact resources, `ServeMcpOptions.artifactResources`. */
export interface ArtifactResourceOptions {
  /**
   * The largest artifact `resources/read` sends, in stored bytes (base64 adds a third for
   * binary). A larger one is refused with an error that names both sizes. Default 1 MiB.
   */
  maxReadBytes?: number;
  /** The most artifacts `resources/list` lists, newest pages last as the store orders them. Default 500. */
  maxListed?: number;
}

/** The URI template of artifact resources. */
export const artifactUriTemplate = 'toolctx://artifacts/{ref}';

/**
 * The MCP resource URI under which `serveMcp` serves an artifact.
 *
 * @example
 * ```ts
 * import { artifactUri } from '@toolctx/core/mcp';
 * artifactUri('art_0123456789abcdefghijkl'); // 'toolctx://artifacts/art_0123456789abcdefghijkl'
 * ```
 */
export function artifactUri(ref: string): string {
  return `${artifactUriPrefix}${ref}`;
}

const artifactUriPrefix = 'toolctx://artifacts/';

const defaultMaxReadBytes = 1024 * 1024;
const defaultMaxListed = 500;
/** Links a result carries at most; every artifact is in `resources/list` anyway. */
const maxLinks = 20;

/**
 * Where an MCP request's artifacts live. An identified caller's scope is its identity's, as at
 * the HTTP door. An anonymous caller's is its MCP session's: a random key made per server (one
 * server serves one connection) joined with the session id, so the session's calls share it and
 * nobody outside can name it. A stateless HTTP request has no session to share: it gets no scope
 * here (nothing listed, nothing read), and its calls each a scope of their own.
 */
export function mcpArtifactScopes(identify: (extra: McpExtra) => Identity | undefined) {
  let serverKey: string | undefined;
  const anonymousScope = (extra: McpExtra): string | undefined => {
    // A transport without sessions that carries no HTTP request (stdio, in memory) is one client.
    if (extra.sessionId === undefined && extra.http?.req !== undefined) return undefined;
    serverKey ??= crypto.randomUUID();
    return `mcp:${serverKey}:${extra.sessionId ?? ''}`;
  };
  return {
    /** `callOnce`'s `anonymousScope` for a request. */
    anonymousScope,
    /** The scope a request reads artifacts in, or `undefined` when it has none. */
    scopeOf(extra: McpExtra): ArtifactScope | undefined {
      const identity = identify(extra);
      const key = anonymousScope(extra);
      return !identified(identity) && key === undefined ? undefined : artifactScope(identity, key);
    },
  };
}

/**
 * Registers the artifact template on `server`: `resources/list` gives the caller's artifacts,
 * `resources/templates/list` the template, `resources/read` one artifact (text for a textual
 * media type, base64 `blob` otherwise). A ref of another scope, one that does not exist, one
 * deleted since it was listed, or a URI that names no artifact all get the SDK's own
 * `ResourceNotFoundError` (`-32602`, `data: { uri }`), so nothing tells them apart. The SDK parses a
 * URI before matching it, so `TOOLCTX://artifacts/…` names what `toolctx://artifacts/…` names:
 * the scope check guards a read, not the URI's spelling.
 */
export function registerArtifactResources(
  server: McpServer,
  store: ArtifactStore,
  scopeOf: (extra: McpExtra) => ArtifactScope | undefined,
  options: ArtifactResourceOptions = {},
): void {
  const maxReadBytes = options.maxReadBytes ?? defaultMaxReadBytes;
  const maxListed = options.maxListed ?? defaultMaxListed;
  const template = new ResourceTemplate(artifactUriTemplate, {
    list: async (extra) => {
      const scope = scopeOf(extra);
      const resources: Resource[] = [];
      if (!scope) return { resources };
      let cursor: string | undefined;
      do {
        const limit = Math.min(100, maxListed - resources.length);
        const page = await store.list(scope, cursor === undefined ? { limit } : { cursor, limit });
        resources.push(...page.artifacts.map(toResource));
        cursor = page.cursor;
      } while (cursor !== undefined && resources.length < maxListed);
      return { resources };
    },
  });
  server.registerResource(
    'toolctx-artifacts',
    template,
    {
      title: 'Artifacts',
      description: "Artifacts this session's tool calls saved, by ref.",
    },
    async (uri, variables, extra): Promise<ReadResourceResult> => {
      const ref = variables.ref;
      const scope = scopeOf(extra);
      if (!scope || !isRef(ref) || uri.href !== artifactUri(ref)) throw notFound(uri);
      const meta = await store.head(scope, ref);
      if (!meta) throw notFound(uri);
      // Checked on the meta, so an oversized artifact is never read whole.
      if (meta.bytes > maxReadBytes) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `The artifact ${uri.href} is ${meta.bytes} bytes, more than the ${maxReadBytes} bytes this server sends in one resources/read.`,
        );
      }
      const found = await store.get(scope, ref);
      if (!found) throw notFound(uri); // deleted or expired since the head
      return { contents: [contentOf(uri.href, found.meta, encodeArtifactData(found.data).bytes)] };
    },
  );
}

/** The store a server serves artifacts from as resources (and links results to), or `undefined`. */
export function servedArtifacts(
  runtime: Runtime,
  options: { artifactResources?: ArtifactResourceOptions | false },
): ArtifactStore | undefined {
  return options.artifactResources === false ? undefined : runtime.artifacts;
}

/**
 * Collects the artifacts a call saves, from its `artifact.put` and `artifact.deleted` events, and
 * adds a `resource_link` to each (at most 20) to the call's successful result. Without a scope
 * (a stateless anonymous request, whose artifacts nobody can read back) it links nothing.
 */
export function artifactLinks(
  server: McpServer,
  store: ArtifactStore | undefined,
  scope: ArtifactScope | undefined,
) {
  const refs = new Set<string>();
  return {
    /** The call's event sink, noting its artifacts first. */
    watch(sink: EventSink): EventSink {
      return (event) => {
        const ref = (event.data as { ref?: unknown } | undefined)?.ref;
        if (event.type === 'artifact.put' && typeof ref === 'string') refs.add(ref);
        else if (event.type === 'artifact.deleted' && typeof ref === 'string') refs.delete(ref);
        sink(event);
      };
    },
    /**
     * `result` with the links appended; tells the client the resource list changed. A call that
     * ran elsewhere (a task's) names what it saved in its handle (`saved`), which is linked as it is.
     */
    async addTo(result: CallToolResult, saved?: SavedArtifact[]): Promise<CallToolResult> {
      if ((refs.size === 0 && !saved?.length) || !store || !scope) return result;
      server.server.sendResourceListChanged().catch(() => {}); // not connected: nobody to tell
      if (result.isError) return result;
      const metas =
        saved ?? (await Promise.all([...refs].slice(0, maxLinks).map((ref) => store.head(scope, ref))));
      return withLinks(
        result,
        metas.filter((meta) => meta !== null),
      );
    },
  };
}

/** `result` with a `resource_link` to each of `saved` (at most 20) after its content; a failure links none. */
export function withLinks(result: CallToolResult, saved: readonly SavedArtifact[]): CallToolResult {
  if (saved.length === 0 || result.isError) return result;
  const links = saved
    .slice(0, maxLinks)
    .map((meta): ResourceLink => ({ type: 'resource_link', ...described(meta) }));
  return { ...result, content: [...result.content, ...links] };
}

/** What a listing and a link say of an artifact. */
function described(meta: SavedArtifact) {
  const name = meta.label ?? meta.ref;
  return {
    uri: artifactUri(meta.ref),
    name,
    // Its own title: the SDK gives each listed resource its template's metadata first.
    title: name,
    description: `Artifact of kind ${meta.kind}.`,
    mimeType: meta.mediaType,
    size: meta.bytes,
  };
}

function toResource(meta: ArtifactMeta): Resource {
  return { ...described(meta), annotations: { lastModified: new Date(meta.createdAt).toISOString() } };
}

function contentOf(
  uri: string,
  meta: ArtifactMeta,
  bytes: Uint8Array,
): ReadResourceResult['contents'][number] {
  if (isTextual(meta.mediaType)) {
    try {
      return { uri, mimeType: meta.mediaType, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      // Not UTF-8 after all: sent as bytes, unchanged.
    }
  }
  return { uri, mimeType: meta.mediaType, blob: base64(bytes) };
}

/** Whether a media type is text a client can show: `text/*`, JSON, XML, JavaScript, YAML. */
function isTextual(mediaType: string): boolean {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  return (
    essence.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-ndjson|yaml|x-yaml|toml)$/.test(essence) ||
    /\+(json|xml|yaml)$/.test(essence)
  );
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  // In chunks: String.fromCharCode takes its bytes as arguments, and arguments are bounded.
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/** The SDK's own answer for a URI it has no resource for: `-32602` with `data: { uri }`. */
function notFound(uri: URL): ResourceNotFoundError {
  return new ResourceNotFoundError(uri.href);
}
