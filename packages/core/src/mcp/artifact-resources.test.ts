import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ErrorCode,
  McpError,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ArtifactStore } from '../artifacts/types.js';
import type { Identity } from '../context/types.js';
import { createRuntime, type Runtime } from '../runtime/create-runtime.js';
import { artifactScope } from '../runtime/run-facts.js';
import { defineTool } from '../tools/define-tool.js';
import { artifactUri } from './artifact-resources.js';
import { type ServeMcpOptions, serveMcp } from './serve-mcp.js';

const tools = [
  defineTool({
    name: 'save',
    description: 'Saves text, or bytes given as numbers, as an artifact.',
    inputSchema: z.object({
      text: z.string().optional(),
      bytes: z.array(z.number()).optional(),
      json: z.record(z.string(), z.number()).optional(),
      mediaType: z.string().optional(),
      label: z.string().optional(),
      after: z.enum(['return', 'fail', 'delete']).optional(),
    }),
    effect: 'write',
    execute: async ({ text, bytes, json, mediaType, label, after }, ctx) => {
      const data = bytes ? new Uint8Array(bytes) : (json ?? text ?? '');
      const meta = await ctx.artifacts.put({ kind: 'note', data, mediaType, label });
      if (after === 'fail') throw new Error('failed after saving');
      if (after === 'delete') await ctx.artifacts.delete(meta.ref);
      return { ref: meta.ref };
    },
  }),
];

/** A runtime over `store`, and MCP clients connected to it, each through its own server. */
function setUp(store: ArtifactStore = createMemoryArtifactStore()) {
  const runtime = createRuntime({ tools, artifacts: store });
  return { runtime, store, connect: (options?: ServeMcpOptions) => connect(runtime, options) };
}

async function connect(runtime: Runtime, options: ServeMcpOptions = {}) {
  const server = serveMcp(runtime, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, server };
}

/** A client whose calls run as `identity`: one server per connection, as a host with sessions has. */
const as = (identity: Identity) => ({ identify: () => identity });
const ana: Identity = { tenant: 'acme', principal: 'ana' };
const bob: Identity = { tenant: 'acme', principal: 'bob' };

async function save(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'save', arguments: args });
  const ref = (result.structuredContent as { ref?: string } | undefined)?.ref;
  return { result, ref: ref!, uri: ref ? artifactUri(ref) : '' };
}

/** The error a read answers. */
async function readError(client: Client, uri: string) {
  const error = await client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message } = error as McpError;
  return { code, message };
}

/**
 * What the SDK answers for a URI it has no resource for (its `ResourceNotFoundError`; the client
 * adds its prefix), so every refusal here is that very answer.
 */
const notFound = (uri: string) => ({
  code: ErrorCode.InvalidParams,
  message: `MCP error -32602: Resource not found: ${URL.canParse(uri) ? new URL(uri).href : uri}`,
});
const neverIssued = artifactUri('art_0123456789abcdefghijkl');

describe('artifacts as MCP resources', () => {
  it('declares resources only when the runtime has an artifact store and they are not turned off', async () => {
    const { client } = await setUp().connect();
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const none = await connect(createRuntime({ tools: [] }));
    expect(none.client.getServerCapabilities()?.resources).toBeUndefined();
    const off = await setUp().connect({ artifactResources: false });
    expect(off.client.getServerCapabilities()?.resources).toBeUndefined();
  });

  it("links a call's artifact in its result and lists and reads it as text", async () => {
    const { client } = await setUp().connect(as(ana));
    const { result, ref, uri } = await save(client, { text: 'hello', label: 'greeting.txt' });
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify({ ref }) },
      {
        type: 'resource_link',
        uri,
        name: 'greeting.txt',
        title: 'greeting.txt',
        description: 'Artifact of kind note.',
        mimeType: 'text/plain; charset=utf-8',
        size: 5,
      },
    ]);
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({
        uri,
        name: 'greeting.txt',
        title: 'greeting.txt',
        mimeType: 'text/plain; charset=utf-8',
        size: 5,
      }),
    ]);
    expect(await client.readResource({ uri })).toEqual({
      contents: [{ uri, mimeType: 'text/plain; charset=utf-8', text: 'hello' }],
    });
  });

  it('reads bytes as a base64 blob, JSON as text, and text-typed bytes that are not UTF-8 as a blob', async () => {
    const { client } = await setUp().connect(as(ana));
    const png = await save(client, { bytes: [137, 80, 78, 71], mediaType: 'image/png' });
    expect((await client.readResource({ uri: png.uri })).contents).toEqual([
      { uri: png.uri, mimeType: 'image/png', blob: 'iVBORw==' },
    ]);
    const json = await save(client, { json: { a: 1 } });
    expect((await client.readResource({ uri: json.uri })).contents).toEqual([
      { uri: json.uri, mimeType: 'application/json', text: '{"a":1}' },
    ]);
    const latin1 = await save(client, { bytes: [0xff, 0xfe], mediaType: 'text/plain' });
    expect((await client.readResource({ uri: latin1.uri })).contents).toEqual([
      { uri: latin1.uri, mimeType: 'text/plain', blob: '//4=' },
    ]);
  });

  it('offers the artifact template in resources/templates/list', async () => {
    const { client } = await setUp().connect(as(ana));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ name: 'toolctx-artifacts', uriTemplate: 'toolctx://artifacts/{ref}' }),
    ]);
  });

  it("shows another identity nothing: bob lists none of ana's artifacts and reading one answers what a ref never issued does", async () => {
    const { connect } = setUp();
    const anaSide = await connect(as(ana));
    const bobSide = await connect(as(bob));
    const { uri } = await save(anaSide.client, { text: 'secret' });
    expect((await bobSide.client.listResources()).resources).toEqual([]);
    expect(await readError(bobSide.client, uri)).toEqual(notFound(uri));
    expect(await readError(bobSide.client, neverIssued)).toEqual(notFound(neverIssued));
    // Another conversation of the same principal is another scope too, as at the HTTP door.
    const elsewhere = await connect(as({ ...ana, conversationId: 'c2' }));
    expect(await readError(elsewhere.client, uri)).toEqual(notFound(uri));
    expect((await anaSide.client.readResource({ uri })).contents[0]).toMatchObject({ text: 'secret' });
  });

  it('answers not found for URIs that are not exactly an artifact of the caller', async () => {
    const { client } = await setUp().connect(as(ana));
    const { ref } = await save(client, { text: 'x' });
    for (const uri of [
      'toolctx://artifacts/../x',
      `toolctx://artifacts/../artifacts/${ref}x`,
      `toolctx://artifacts/${ref}?raw=1`,
      `toolctx://artifacts/${ref}#top`,
      `toolctx://artifacts/${ref.toUpperCase()}`,
      `toolctx://artifacts/not-a-ref`,
      `file:///etc/passwd`,
      `https://example.com/${ref}`,
    ]) {
      // The SDK names a URI no template matches as given, and ours as parsed: either way its answer.
      const raw = { ...notFound(uri), message: `MCP error -32602: Resource not found: ${uri}` };
      expect([notFound(uri), raw], uri).toContainEqual(await readError(client, uri));
    }
  });

  it("reads the caller's own artifact under the scheme in any case, as URL parsing spells it, and another caller's under none", async () => {
    const { runtime } = setUp();
    const { client } = await connect(runtime, as(ana));
    const { ref } = await save(client, { text: 'x' });
    for (const uri of [`TOOLCTX://artifacts/${ref}`, `Toolctx://artifacts/${ref}`]) {
      expect((await client.readResource({ uri })).contents[0], uri).toMatchObject({
        uri: artifactUri(ref),
        text: 'x',
      });
      const other = await connect(runtime, as(bob));
      expect(await readError(other.client, uri), uri).toEqual(notFound(uri));
    }
  });

  it('refuses an artifact larger than maxReadBytes without reading it, naming both sizes', async () => {
    const store = createMemoryArtifactStore();
    let reads = 0;
    const counting: ArtifactStore = {
      ...store,
      capabilities: store.capabilities,
      get: (...args) => {
        reads++;
        return store.get(...args);
      },
    };
    const { client } = await setUp(counting).connect({ ...as(ana), artifactResources: { maxReadBytes: 10 } });
    const { uri } = await save(client, { text: 'twenty bytes of text' });
    const error = await readError(client, uri);
    expect(error.code).toBe(ErrorCode.InvalidRequest);
    expect(error.message).toContain('is 20 bytes, more than the 10 bytes this server sends');
    expect(reads).toBe(0);
  });

  it('lists at most maxListed artifacts', async () => {
    const { client } = await setUp().connect({ ...as(ana), artifactResources: { maxListed: 3 } });
    for (let i = 0; i < 5; i++) await save(client, { text: `note ${i}` });
    expect((await client.listResources()).resources).toHaveLength(3);
  });

  it('reads an artifact of exactly 1 MiB by default, and refuses one of 1 MiB and a byte', async () => {
    const { store, connect } = setUp();
    const { client } = await connect(as(ana));
    const fits = await store.put(artifactScope(ana), { kind: 'note', data: 'x'.repeat(1_048_576) });
    const [content] = (await client.readResource({ uri: artifactUri(fits.ref) })).contents;
    expect((content as { text: string }).text).toHaveLength(1_048_576);
    const over = await store.put(artifactScope(ana), { kind: 'note', data: 'x'.repeat(1_048_577) });
    const error = await readError(client, artifactUri(over.ref));
    expect(error.code).toBe(ErrorCode.InvalidRequest);
    expect(error.message).toContain('is 1048577 bytes, more than the 1048576 bytes this server sends');
  });

  it('lists 500 artifacts by default: of 501, the first 500 the store holds, with no cursor to more', async () => {
    const { store, connect } = setUp();
    const { client } = await connect(as(ana));
    const refs: string[] = [];
    for (let i = 0; i < 501; i++) {
      refs.push((await store.put(artifactScope(ana), { kind: 'note', data: `note ${i}` })).ref);
    }
    const listed = await client.listResources();
    expect(listed.resources.map((resource) => resource.uri)).toEqual(refs.slice(0, 500).map(artifactUri));
    expect(listed.nextCursor).toBeUndefined();
  });

  it("links 20 of a call's 21 artifacts, the first 20 it saved; all 21 are listed and read", async () => {
    const saveMany = defineTool({
      name: 'save_many',
      description: 'Saves `count` notes.',
      inputSchema: z.object({ count: z.number() }),
      effect: 'write',
      execute: async ({ count }, ctx) => {
        const refs: string[] = [];
        for (let i = 0; i < count; i++)
          refs.push((await ctx.artifacts.put({ kind: 'note', data: `n${i}` })).ref);
        return { refs };
      },
    });
    const runtime = createRuntime({ tools: [saveMany], artifacts: createMemoryArtifactStore() });
    const { client } = await connect(runtime, as(ana));
    const result = await client.callTool({ name: 'save_many', arguments: { count: 21 } });
    const { refs } = result.structuredContent as { refs: string[] };
    expect(refs).toHaveLength(21);
    const links = (result.content as { type: string; uri?: string }[]).filter(
      (item) => item.type === 'resource_link',
    );
    expect(links.map((link) => link.uri)).toEqual(refs.slice(0, 20).map(artifactUri));
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(refs.map(artifactUri).sort());
    expect((await client.readResource({ uri: artifactUri(refs[20]!) })).contents[0]).toMatchObject({
      text: 'n20',
    });
  });

  it('answers not found for an artifact deleted between list and read', async () => {
    const { store, connect } = setUp();
    const { client } = await connect(as(ana));
    const { ref, uri } = await save(client, { text: 'short-lived' });
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([uri]);
    await store.delete(artifactScope(ana), ref);
    expect(await readError(client, uri)).toEqual(notFound(uri));
    expect((await client.listResources()).resources).toEqual([]);
  });

  it('links nothing for an artifact the call deleted or for a failed call, and lists what is left', async () => {
    const { client } = await setUp().connect(as(ana));
    const deleted = await save(client, { text: 'gone', after: 'delete' });
    expect(deleted.result.content).toHaveLength(1);
    const failed = await client.callTool({ name: 'save', arguments: { text: 'kept', after: 'fail' } });
    expect(failed.isError).toBe(true);
    expect((failed.content as { type: string }[]).map((item) => item.type)).toEqual(['text']);
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(1);
    expect((await client.readResource({ uri: resources[0]!.uri })).contents[0]).toMatchObject({
      text: 'kept',
    });
  });

  it('tells the client the resource list changed when a call saved an artifact', async () => {
    const { client } = await setUp().connect(as(ana));
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed++;
    });
    await save(client, { text: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changed).toBe(1);
  });

  it("gives each anonymous session its own artifacts, shared by that session's calls", async () => {
    const { connect } = setUp();
    const first = await connect();
    const second = await connect();
    const { uri } = await save(first.client, { text: 'mine' });
    await save(first.client, { text: 'mine too' });
    expect((await first.client.listResources()).resources).toHaveLength(2);
    expect((await first.client.readResource({ uri })).contents[0]).toMatchObject({ text: 'mine' });
    expect((await second.client.listResources()).resources).toEqual([]);
    expect(await readError(second.client, uri)).toEqual(notFound(uri));
  });

  it('serves resources a user registers on the same server next to the artifacts', async () => {
    const { runtime } = setUp();
    const server = serveMcp(runtime, as(ana));
    server.registerResource('static', 'test://static', { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'static text' }],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const { uri } = await save(client, { text: 'artifact text' });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['test://static', uri]);
    expect((await client.readResource({ uri: 'test://static' })).contents[0]).toMatchObject({
      text: 'static text',
    });
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: 'artifact text' });
  });

  it('gives an anonymous session over streamable HTTP its own artifacts', async () => {
    const { runtime } = setUp();
    const server = serveMcp(runtime);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
    });
    await server.connect(transport);
    const client = await httpClient((request) => transport.handleRequest(request));
    const { uri, result } = await save(client, { text: 'over http' });
    expect((result.content as { type: string }[]).map((item) => item.type)).toEqual([
      'text',
      'resource_link',
    ]);
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: 'over http' });
    const other = await connect(runtime);
    expect(await readError(other.client, uri)).toEqual(notFound(uri));
  });

  it('shows a stateless anonymous request nothing, and links nothing nobody could read back', async () => {
    const { runtime, store } = setUp();
    // Stateless, as the SDK asks: a server and a transport per request.
    const client = await httpClient(async (request) => {
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      await serveMcp(runtime).connect(transport);
      return transport.handleRequest(request);
    });
    const { result } = await save(client, { text: 'lost' });
    expect((result.content as { type: string }[]).map((item) => item.type)).toEqual(['text']);
    expect((await client.listResources()).resources).toEqual([]);
    // Saved in a scope of that call's own, as before: nobody's listing shows it.
    expect((await store.list(artifactScope(undefined))).artifacts).toEqual([]);
  });
});

async function httpClient(handle: (request: Request) => Promise<Response>): Promise<Client> {
  const client = new Client({ name: 'http', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
      fetch: (input, init) => handle(new Request(input, init)),
    }),
  );
  return client;
}
