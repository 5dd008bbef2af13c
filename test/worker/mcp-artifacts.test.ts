// Artifacts as MCP resources over real HTTP: the MCP test Worker (packages/edge/src/mcp/test-worker.ts)
// under `wrangler dev`, its artifacts in wrangler's local KV and R2, and the official SDK client
// as two identities. What a call saved is linked in its result, listed and read by its identity,
// and to the other identity it does not exist.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

let dev: WranglerDev;

beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

async function connectAs(token: string): Promise<Client> {
  const client = new Client({ name: token, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp-artifacts`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** The JSON-RPC error a read answers, as the client got it. */
async function readError(client: Client, uri: string): Promise<{ code: unknown; message: unknown }> {
  const error = (await client.readResource({ uri }).then(
    () => ({}),
    (caught: unknown) => caught,
  )) as { code?: unknown; message?: unknown };
  return { code: error.code, message: error.message };
}

describe("artifacts as MCP resources on the Worker's /mcp under wrangler dev", () => {
  it("lists and reads what ana's call saved for ana, and for bob it does not exist", async () => {
    const ana = await connectAs('ana');
    const saved = await ana.callTool({ name: 'save_note', arguments: { text: 'saved over http' } });
    const { ref } = saved.structuredContent as { ref: string };
    const uri = `toolctx://artifacts/${ref}`;
    expect(saved.content).toContainEqual(
      expect.objectContaining({
        type: 'resource_link',
        uri,
        mimeType: 'text/plain; charset=utf-8',
        size: 15,
      }),
    );
    const listed = await ana.listResources();
    expect(listed.resources).toContainEqual(expect.objectContaining({ uri, name: 'note', size: 15 }));
    expect((await ana.readResource({ uri })).contents).toEqual([
      { uri, mimeType: 'text/plain; charset=utf-8', text: 'saved over http' },
    ]);

    const bob = await connectAs('bob');
    expect((await bob.listResources()).resources.map((resource) => resource.uri)).not.toContain(uri);
    const never = 'toolctx://artifacts/art_0123456789abcdefghijkl';
    const foreign = await readError(bob, uri);
    expect(foreign).toEqual({
      code: -32602,
      message: `MCP error -32602: Resource not found: ${uri}`,
    });
    const missing = await readError(bob, never);
    expect({ ...missing, message: String(missing.message).replace(never, uri) }).toEqual(foreign);
    await Promise.all([ana.close(), bob.close()]);
  });
});
