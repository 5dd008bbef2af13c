import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

// Policy in the call path: the phase, the conversation's taint and the trifecta, guarded egress.

const record = () => {
  const events: ToolEvent[] = [];
  return { events, sink: (event: ToolEvent) => void events.push(event) };
};

describe('phase', () => {
  const read = defineTool({
    name: 'read',
    description: 'Reads.',
    inputSchema: z.object({}),
    execute: () => 'r',
  });
  const write = defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({}),
    effect: 'write',
    execute: () => 'w',
  });
  const sneaky = defineTool({
    name: 'sneaky',
    description: 'A read tool that tries to write through a child call.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => ctx.tools!.call({ tool: 'write', args: {} }),
  });

  it('in plan, lists and runs only read tools; a child cannot escalate', async () => {
    const { events, sink } = record();
    const runtime = createRuntime({ tools: [read, write, sneaky], sinks: [sink] });
    expect(runtime.listTools({ phase: 'plan' }).map((tool) => tool.name)).toEqual(['read', 'sneaky']);
    const run = runtime.startRun({ phase: 'plan' });
    expect(await run.call({ tool: 'read', args: {} })).toMatchObject({ ok: true });
    expect(await run.call({ tool: 'write', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'policy-refused' },
    });
    expect(await run.call({ tool: 'sneaky', args: {} })).toMatchObject({
      ok: true,
      value: { ok: false, error: { kind: 'policy-refused' } },
    });
    expect(events.filter((event) => event.type === 'policy.refused')).toHaveLength(2);
  });
});

describe('taint and the lethal trifecta', () => {
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
  const readOdd = defineTool({
    name: 'read_odd',
    description: 'Cannot tell.',
    inputSchema: z.object({}),
    reads: () => 'unknown',
    execute: () => '?',
  });
  const post = defineTool({
    name: 'post',
    description: 'Posts data out.',
    inputSchema: z.object({}),
    effect: 'send',
    execute: () => 'sent',
  });
  const forward = defineTool({
    name: 'forward',
    description: 'Reaches post through a child call.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => ctx.tools!.call({ tool: 'post', args: {} }),
  });

  it('allows send with one leg armed, blocks it with both, also through a child call', async () => {
    const runtime = createRuntime({ tools: [readMail, readWeb, post, forward] });
    const run = runtime.startRun({ identity: { tenant: 't', principal: 'p', conversationId: 'c1' } });
    await run.call({ tool: 'read_mail', args: {} });
    expect(await run.call({ tool: 'post', args: {} })).toMatchObject({ ok: true });
    await run.call({ tool: 'read_web', args: {} });
    expect(await run.call({ tool: 'post', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'policy-refused' },
    });
    expect(await run.call({ tool: 'forward', args: {} })).toMatchObject({
      value: { ok: false, error: { kind: 'policy-refused' } },
    });
    const fresh = runtime.startRun({ identity: { tenant: 't', principal: 'p', conversationId: 'c2' } });
    expect(await fresh.call({ tool: 'post', args: {} })).toMatchObject({ ok: true });
  });

  it('counts unknown taint as full', async () => {
    const run = createRuntime({ tools: [readOdd, post] }).startRun();
    await run.call({ tool: 'read_odd', args: {} });
    expect(await run.call({ tool: 'post', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'policy-refused' },
    });
  });

  it("asks for approval in 'approve' mode, and allows in 'allow' mode", async () => {
    const approval = createMemoryApprovalPort({ decide: () => ({ approved: true }) });
    const asking = createRuntime({
      tools: [readOdd, post],
      approval,
      security: { trifecta: 'approve' },
    }).startRun();
    await asking.call({ tool: 'read_odd', args: {} });
    expect(await asking.call({ tool: 'post', args: {} })).toMatchObject({ ok: true });
    expect(approval.requests.map((request) => request.toolName)).toEqual(['post']);
    const open = createRuntime({ tools: [readOdd, post], security: { trifecta: 'allow' } }).startRun();
    await open.call({ tool: 'read_odd', args: {} });
    expect(await open.call({ tool: 'post', args: {} })).toMatchObject({ ok: true });
  });
});

describe('ctx.fetch', () => {
  const fetcher = (effect: 'read' | 'send') =>
    defineTool({
      name: `fetch_${effect}`,
      description: 'Fetches a URL.',
      inputSchema: z.object({ url: z.string() }),
      effect,
      execute: async ({ url }, ctx) => (await ctx.fetch(url)).status,
    });

  it('is for send tools only, and refuses private addresses with a clear ErrorInfo', async () => {
    const run = createRuntime({ tools: [fetcher('read'), fetcher('send')] }).startRun();
    expect(await run.call({ tool: 'fetch_read', args: { url: 'https://example.com' } })).toMatchObject({
      ok: false,
      error: { kind: 'policy-refused', message: /effect: 'send'/ },
    });
    for (const url of [
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://0x7f.1/',
    ]) {
      const result = await run.call({ tool: 'fetch_send', args: { url } });
      expect(result).toMatchObject({ ok: false, error: { kind: 'policy-refused' } });
    }
  });

  it('passes the call signal through, and meets the taint check', async () => {
    // No network here: a stand-in fetch records what it was given.
    const seen: { signal?: AbortSignal }[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ signal: init?.signal ?? undefined });
      return new Response('ok');
    }) as typeof fetch;
    try {
      const readOdd = defineTool({
        name: 'read_odd',
        description: 'Odd.',
        inputSchema: z.object({}),
        reads: () => 'unknown',
        execute: () => 1,
      });
      const run = createRuntime({
        tools: [fetcher('send'), readOdd],
        security: { egress: { allowedDomains: ['example.com'] } },
      }).startRun();
      expect(
        await run.call({ tool: 'fetch_send', args: { url: 'https://api.example.com/x' } }),
      ).toMatchObject({ ok: true, value: 200 });
      expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
      expect(await run.call({ tool: 'fetch_send', args: { url: 'https://evil.test/x' } })).toMatchObject({
        ok: false,
        error: { kind: 'policy-refused' },
      });
      await run.call({ tool: 'read_odd', args: {} });
      expect(
        await run.call({ tool: 'fetch_send', args: { url: 'https://api.example.com/x' } }),
      ).toMatchObject({ ok: false, error: { kind: 'policy-refused' } });
      expect(seen).toHaveLength(1);
    } finally {
      globalThis.fetch = original;
    }
  });
});
