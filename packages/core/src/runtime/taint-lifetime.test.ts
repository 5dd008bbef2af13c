import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveMcp } from '../mcp/serve-mcp.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime, type Runtime } from './create-runtime.js';
import type { RunFrame } from './run.js';

// A conversation's taint is kept while a run or call of it lives, and goes with the last: a host
// that runs for months keeps one record per live conversation, not one per conversation it served.

const readMail = defineTool({
  name: 'read_mail',
  description: 'Reads private mail.',
  inputSchema: z.object({}),
  reads: 'private',
  execute: () => 'mail',
});
const readWeb = defineTool({
  name: 'read_web',
  description: 'Reads a web page.',
  inputSchema: z.object({}),
  reads: 'untrusted',
  execute: () => 'page',
});
const peek = defineTool({
  name: 'peek',
  description: 'Reports the taint it sees.',
  inputSchema: z.object({}),
  execute: (_args, ctx) => ({ ...ctx.taint }),
});
const post = defineTool({
  name: 'post',
  description: 'Posts a message.',
  inputSchema: z.object({}),
  effect: 'send',
  execute: () => 'posted',
});
const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const tools = [readMail, readWeb, peek, post, echo];

/** How many conversations the runtime's taint tracker holds (an internal count, for these tests). */
function taintRecords(runtime: Runtime): number {
  return (runtime.startRun() as unknown as RunFrame).services.taint.size;
}

const ana = (conversationId: string) => ({ tenant: 'acme', principal: 'ana', conversationId });

describe('the taint record', () => {
  it('is back at its starting size after 100,000 one-shot calls and runs that raised taint and ended', async () => {
    const runtime = createRuntime({ tools });
    const start = taintRecords(runtime);
    // Each identified call its own conversation, so a record left behind would be one per call.
    for (let i = 0; i < 40_000; i++) {
      await runtime.callOnce({ tool: 'read_mail', args: {}, identity: ana(`c-${i}`) });
    }
    for (let i = 0; i < 40_000; i++) await runtime.callOnce({ tool: 'read_web', args: {} });
    for (let i = 0; i < 10_000; i++) {
      const run = runtime.startRun({ identity: ana(`r-${i}`) });
      await run.call({ tool: 'read_mail', args: {} });
      await run.end();
    }
    // Frames in flight at once, some on one conversation: counted while they live, gone after.
    let peak = 0;
    await Promise.all(
      Array.from({ length: 10_000 }, async (_, i) => {
        const result = runtime.callOnce({ tool: 'read_mail', args: {}, identity: ana(`b-${i % 100}`) });
        peak = Math.max(peak, taintRecords(runtime));
        return result;
      }),
    );
    expect(peak).toBe(start + 100);
    expect(taintRecords(runtime)).toBe(start);
  });

  it('keeps a shared conversation’s taint while any of its runs lives, one that has not touched taint yet too, and lets it go with the last', async () => {
    const runtime = createRuntime({ tools });
    const start = taintRecords(runtime);
    const first = runtime.startRun({ identity: ana('c-1') });
    const second = runtime.startRun({ identity: ana('c-1') });
    expect(await first.call({ tool: 'read_mail', args: {} })).toMatchObject({ ok: true });
    await first.end();
    expect(await second.call({ tool: 'peek', args: {} })).toMatchObject({
      value: { private: true, untrusted: false },
    });
    expect(taintRecords(runtime)).toBe(start + 1);
    await second.end();
    expect(taintRecords(runtime)).toBe(start);
    const later = runtime.startRun({ identity: ana('c-1') });
    expect(await later.call({ tool: 'peek', args: {} })).toMatchObject({
      value: { private: false, untrusted: false },
    });
    await later.end();
    expect(taintRecords(runtime)).toBe(start);
  });

  it('costs an anonymous run that never reads or raises taint nothing: it holds no record', async () => {
    const runtime = createRuntime({ tools });
    const run = runtime.startRun();
    await run.call({ tool: 'echo', args: { text: 'hi' } });
    expect(taintRecords(runtime)).toBe(0);
    await run.call({ tool: 'read_web', args: {} });
    expect(taintRecords(runtime)).toBe(1);
    await run.end();
    expect(taintRecords(runtime)).toBe(0);
  });

  it('lets an MCP session’s later calls see what its earlier ones read, while the runtime keeps no record between calls', async () => {
    const runtime = createRuntime({ tools });
    const session = async () => {
      const server = serveMcp(runtime);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'taint', version: '1.0.0' });
      await client.connect(clientSide);
      return client;
    };
    const client = await session();
    await client.callTool({ name: 'read_mail', arguments: {} });
    expect(taintRecords(runtime)).toBe(0);
    await client.callTool({ name: 'read_web', arguments: {} });
    expect(taintRecords(runtime)).toBe(0);
    const refused = await client.callTool({ name: 'post', arguments: {} });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { error: { kind: 'policy-refused' } },
    });
    // Another session of the same runtime has read nothing.
    const other = await session();
    expect(await other.callTool({ name: 'post', arguments: {} })).not.toHaveProperty('isError', true);
    expect(taintRecords(runtime)).toBe(0);
    await client.close();
    await other.close();
  });
});
