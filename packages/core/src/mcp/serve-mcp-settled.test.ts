import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ArtifactStore } from '../artifacts/types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { artifactScope } from '../runtime/run-facts.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcp } from './serve-mcp.js';

it('MCP door: a call cancelled by the client mid-put leaves no artifact, and its put is refused', async () => {
  const inner = createMemoryArtifactStore();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let putStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    putStarted = resolve;
  });
  const store: ArtifactStore = {
    ...inner,
    put: async (scope, input) => {
      putStarted();
      await gate;
      return inner.put(scope, input);
    },
  };
  let put: Promise<unknown> | undefined;
  const save = defineTool({
    name: 'save',
    description: 'Saves a note, slowly.',
    effect: 'write',
    input: z.object({}),
    // The tool gives up at once when cancelled, leaving its put in flight.
    execute: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        put = ctx.artifacts.put({ kind: 'note', data: 'written too late' });
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      }),
  });
  const saveNow = defineTool({
    name: 'save_now',
    description: 'Saves a note and waits for it.',
    effect: 'write',
    input: z.object({}),
    execute: async (_args, ctx) => (await ctx.artifacts.put({ kind: 'note', data: 'in time' })).ref,
  });
  const identity = { tenant: 'acme', principal: 'ana' };
  const runtime = createRuntime({ tools: [save, saveNow], artifacts: store });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveMcp(runtime, { identify: () => identity }).connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);

  const controller = new AbortController();
  const call = client.callTool({ name: 'save', arguments: {} }, undefined, { signal: controller.signal });
  const settled = call.then(
    () => 'resolved',
    () => 'rejected',
  );
  await started;
  controller.abort('the user pressed stop');
  expect(await settled).toBe('rejected');
  // The tool's call has settled as aborted on the server; only now does the store answer.
  await new Promise((resolve) => setTimeout(resolve, 20));
  release();
  await expect(put).rejects.toMatchObject({ kind: 'call-settled' });
  const scope = artifactScope(identity);
  expect((await inner.list(scope)).artifacts).toEqual([]);
  // The same scope does hold a put that lands while its call runs.
  await client.callTool({ name: 'save_now', arguments: {} });
  expect((await inner.list(scope)).artifacts.map((meta) => meta.label ?? meta.kind)).toEqual(['note']);
});
