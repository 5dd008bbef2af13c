import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpDoor } from '../mcp/door.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';
import type { DoorDeclaration } from './door.js';
import type { RunFrame } from './run.js';

// A runtime served through several doors is one runtime: what it keeps across calls (taint,
// approval tokens, session and shutdown cleanups) is the same whichever door a call came through.

const sessionDoor: DoorDeclaration = Object.freeze({
  name: 'sessions',
  teardownScopes: Object.freeze(['call', 'run', 'session'] as const),
  runIds: true,
  dispatch: true,
});
const ana = { tenant: 'acme', principal: 'ana', conversationId: 'c-1' };

describe('doors of one runtime', () => {
  it('share the taint: a private read through the MCP door arms the leg a live run at another door sees', async () => {
    const readMail = defineTool({
      name: 'read_mail',
      description: 'Reads private mail.',
      inputSchema: z.object({}),
      reads: 'private',
      execute: () => 'mail',
    });
    const peek = defineTool({
      name: 'peek',
      description: 'Reports the taint it sees.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ({ ...ctx.taint }),
    });
    const runtime = createRuntime({ tools: [readMail, peek] });
    const mcp = runtime.withDoor(mcpDoor);
    const run = runtime.withDoor(sessionDoor).startRun({ identity: ana });
    expect(await mcp.callOnce({ tool: 'read_mail', args: {}, identity: ana })).toMatchObject({ ok: true });
    expect(await run.call({ tool: 'peek', args: {} })).toMatchObject({
      ok: true,
      value: { private: true, untrusted: false },
    });
  });

  it('fire a session cleanup registered through one door when the original runtime closes the session', async () => {
    const fired: string[] = [];
    const holder = defineTool({
      name: 'holder',
      description: 'Holds a session resource.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.onTeardown(() => fired.push('session'), { scope: 'session' });
        return 'held';
      },
    });
    const runtime = createRuntime({ tools: [holder] });
    const run = runtime.withDoor(sessionDoor).startRun({ identity: ana, sessionId: 's-1' });
    await run.call({ tool: 'holder', args: {} });
    await run.end();
    expect(fired).toEqual([]);
    await runtime.closeSession('s-1', ana);
    expect(fired).toEqual(['session']);
  });

  it('fire every session cleanup of every door at the original runtime’s shutdown', async () => {
    const fired: string[] = [];
    const holder = defineTool({
      name: 'holder',
      description: 'Holds a session resource.',
      inputSchema: z.object({ label: z.string() }),
      execute: ({ label }, ctx) => {
        ctx.onTeardown(() => fired.push(label), { scope: 'session' });
        return label;
      },
    });
    const runtime = createRuntime({ tools: [holder] });
    await runtime
      .startRun({ sessionId: 'a', identity: ana })
      .call({ tool: 'holder', args: { label: 'in-process' } });
    await runtime
      .withDoor(sessionDoor)
      .startRun({ sessionId: 'b', identity: ana })
      .call({ tool: 'holder', args: { label: 'door' } });
    await runtime.shutdown();
    expect(fired.sort()).toEqual(['door', 'in-process']);
  });

  it('still refuse, naming the door, a scope the door a call came through does not honour', async () => {
    const holder = defineTool({
      name: 'holder',
      description: 'Wants a session cleanup.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ctx.onTeardown(() => {}, { scope: 'session' }),
    });
    const runtime = createRuntime({ tools: [holder] });
    const result = await runtime.withDoor(mcpDoor).callOnce({ tool: 'holder', args: {}, sessionId: 's-1' });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'unsupported', message: /The mcp door does not honour teardown scope 'session'/ },
    });
    expect(await runtime.startRun({ sessionId: 's-1' }).call({ tool: 'holder', args: {} })).toMatchObject({
      ok: true,
    });
  });

  it('change only the door: the tools and the services behind them are the same objects', () => {
    const tool = defineTool({ name: 't', description: 'T.', inputSchema: z.object({}), execute: () => 1 });
    const runtime = createRuntime({ tools: [tool] });
    const other = runtime.withDoor(sessionDoor);
    expect(other.door).toBe(sessionDoor);
    expect(other.tools).toBe(runtime.tools);
    const a = (runtime.startRun() as unknown as RunFrame).services;
    const b = (other.startRun() as unknown as RunFrame).services;
    expect(b.taint).toBe(a.taint);
    expect(b.sinks).toBe(a.sinks);
    expect(b.door).not.toBe(a.door);
  });
});
