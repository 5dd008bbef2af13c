import { createRuntime, defineTool, type Identity, type Runtime } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolServer } from './create-tool-server.js';

// A one-shot call's frame holds its conversation's taint while it runs and lets it go when it
// ends, so an isolate that answers POST /calls all day keeps no record per call.

const readMail = defineTool({
  name: 'read_mail',
  description: 'Reads private mail of the conversation it is given.',
  inputSchema: z.object({}),
  reads: 'private',
  execute: () => 'mail',
});
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads a web page.',
  inputSchema: z.object({}),
  reads: 'untrusted',
  execute: () => 'page',
});

/** `Bearer <principal>` of tenant acme, in the conversation `x-conversation` names: one key per conversation. */
function authenticate(request: Request): Identity | null {
  const principal = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const conversationId = request.headers.get('x-conversation') ?? undefined;
  return principal ? { tenant: 'acme', principal, conversationId } : null;
}

/** How many conversations the runtime's taint tracker holds: core's internal count, read through a run. */
function taintRecords(runtime: Runtime): number {
  const run = runtime.startRun() as unknown as { services: { taint: { size: number } } };
  return run.services.taint.size;
}

describe('POST /calls and the taint record', () => {
  it('leaves the runtime’s taint record at its starting size after 2,000 one-shot calls that raised taint', async () => {
    const runtime = createRuntime({ tools: [readMail, readPage] });
    const app = createToolServer({ runtimeFor: () => runtime, authenticate });
    const start = taintRecords(runtime);
    expect(start).toBe(0);
    const call = (tool: string, as: string, conversation: number) =>
      app.request('/calls', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${as}`,
          'content-type': 'application/json',
          'x-conversation': `c-${conversation}`,
        },
        body: JSON.stringify({ tool, args: {} }),
      });
    for (let i = 0; i < 1_000; i++) {
      const answers = await Promise.all([call('read_mail', 'ana', i), call('read_page', 'bob', i)]);
      for (const answer of answers) expect(await answer.json()).toMatchObject({ ok: true });
    }
    expect(taintRecords(runtime)).toBe(start);
    // Anonymous callers' one-shot calls each have a key of their own: gone with their call too.
    const anonymous = createRuntime({ tools: [readPage] });
    const open = createToolServer({ runtimeFor: () => anonymous, authenticate: () => ({}) });
    for (let i = 0; i < 200; i++) {
      const answer = await open.request('/calls', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'read_page', args: {} }),
      });
      expect(await answer.json()).toMatchObject({ ok: true });
    }
    expect(taintRecords(anonymous)).toBe(0);
  });
});
