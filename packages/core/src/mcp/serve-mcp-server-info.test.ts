import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// The package's own manifest, read when the test runs: a JSON import rather than node:fs, since
// core's test tsconfig has no Node types and the suite also runs in workerd and Chromium. A
// release that bumps its version without the code's default fails here.
import manifest from '../../package.json';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcp } from './serve-mcp.js';

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

async function handshake(options: Parameters<typeof serveMcp>[1] = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveMcp(createRuntime({ tools: [echo] }), options).connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe("serveMcp's serverInfo", () => {
  it("defaults to { name: 'toolctx', version: '0.1.0' } in the handshake, the version being core's package.json", async () => {
    const client = await handshake();
    expect(client.getServerVersion()).toEqual({ name: 'toolctx', version: '0.1.0' });
    expect(manifest.version).toBe('0.1.0');
    expect(client.getServerVersion()).toEqual({ name: 'toolctx', version: manifest.version });
    await client.close();
  });

  it('sends the serverInfo it is given instead', async () => {
    const client = await handshake({ serverInfo: { name: 'acme-tools', version: '3.2.1' } });
    expect(client.getServerVersion()).toEqual({ name: 'acme-tools', version: '3.2.1' });
    await client.close();
  });
});
