import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

// Artifacts as MCP resources on the Worker: the test Worker's ArtifactMcpSession keeps them in KV
// and R2 (Miniflare's), behind authentication on /mcp-artifacts and open on /mcp-artifacts-open.
async function connect(token?: string, path = token ? '/mcp-artifacts' : '/mcp-artifacts-open') {
  const client = new Client({ name: 'artifacts-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://toolctx.test${path}`), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
  });
  await client.connect(transport);
  return client;
}

async function saveNote(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'save_note', arguments: args });
  const { ref } = result.structuredContent as { ref: string };
  return { result, ref, uri: `toolctx://artifacts/${ref}` };
}

async function readError(client: Client, uri: string) {
  const error = await client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return { code: (error as McpError).code, message: (error as McpError).message };
}

const notFound = (uri: string) => ({
  code: -32602,
  message: `MCP error -32602: Resource not found: ${uri}`,
});

describe('artifacts as MCP resources on the Worker', () => {
  it("declares resources, links a call's artifact and lists and reads it, next to the subclass's own resource", async () => {
    const ana = await connect('ana');
    expect(ana.getServerCapabilities()?.resources).toBeDefined();
    const { result, uri } = await saveNote(ana, { text: 'from workerd' });
    expect(result.content).toContainEqual({
      type: 'resource_link',
      uri,
      name: 'note',
      title: 'note',
      description: 'Artifact of kind note.',
      mimeType: 'text/plain; charset=utf-8',
      size: 12,
    });
    const { resources } = await ana.listResources();
    // The subclass's own resource first (the SDK lists fixed resources before templates' lists).
    expect(resources[0]?.uri).toBe('test://readme');
    expect(resources.map((resource) => resource.uri)).toContain(uri);
    expect((await ana.readResource({ uri })).contents).toEqual([
      { uri, mimeType: 'text/plain; charset=utf-8', text: 'from workerd' },
    ]);
    expect((await ana.readResource({ uri: 'test://readme' })).contents[0]).toMatchObject({
      text: 'Notes are artifacts.',
    });
    const { resourceTemplates } = await ana.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['toolctx://artifacts/{ref}']);
    await ana.close();
  });

  it("shows bob none of ana's artifacts, in a new session of ana's as in the same, and answers him not found", async () => {
    const ana = await connect('ana');
    const { uri } = await saveNote(ana, { text: 'only for ana' });
    const bob = await connect('bob');
    expect((await bob.listResources()).resources.map((resource) => resource.uri)).not.toContain(uri);
    expect(await readError(bob, uri)).toEqual(notFound(uri));
    const never = 'toolctx://artifacts/art_0123456789abcdefghijkl';
    expect(await readError(bob, never)).toEqual(notFound(never));
    // The scope is the identity's, not the session's: ana's next session reads it.
    const anaAgain = await connect('ana');
    expect((await anaAgain.listResources()).resources.map((resource) => resource.uri)).toContain(uri);
    expect((await anaAgain.readResource({ uri })).contents[0]).toMatchObject({ text: 'only for ana' });
    await Promise.all([ana.close(), bob.close(), anaAgain.close()]);
  });

  it('gives each anonymous session its own artifacts', async () => {
    const first = await connect();
    const second = await connect();
    const { uri } = await saveNote(first, { text: 'anonymous' });
    expect((await first.listResources()).resources.map((resource) => resource.uri)).toContain(uri);
    expect((await first.readResource({ uri })).contents[0]).toMatchObject({ text: 'anonymous' });
    expect((await second.listResources()).resources.map((resource) => resource.uri)).toEqual([
      'test://readme',
    ]);
    expect(await readError(second, uri)).toEqual(notFound(uri));
    await Promise.all([first.close(), second.close()]);
  });

  it('reads bytes as base64, refuses an artifact over the bound, and answers not found once it is deleted', async () => {
    const ana = await connect('ana');
    const small = await saveNote(ana, { bytes: 3, mediaType: 'application/octet-stream' });
    expect((await ana.readResource({ uri: small.uri })).contents).toEqual([
      { uri: small.uri, mimeType: 'application/octet-stream', blob: 'Kioq' },
    ]);
    const large = await saveNote(ana, { bytes: 1025 });
    const refused = await readError(ana, large.uri);
    expect(refused.message).toContain('is 1025 bytes, more than the 1024 bytes this server sends');
    await ana.callTool({ name: 'delete_note', arguments: { ref: small.ref } });
    expect(await readError(ana, small.uri)).toEqual(notFound(small.uri));
    expect((await ana.listResources()).resources.map((resource) => resource.uri)).not.toContain(small.uri);
    await ana.close();
  });
});
