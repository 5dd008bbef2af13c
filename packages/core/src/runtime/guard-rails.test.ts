import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import type { ToolResult } from '../context/types.js';
import type { CredentialProvider } from '../credentials/credential-provider.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createStatusModel } from '../status/status-model.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const record = () => {
  const events: ToolEvent[] = [];
  return { events, sink: (event: ToolEvent) => void events.push(event) };
};

const SECRET = 'sk-live-PLANTED-SECRET-7d1f';

function pendingId(result: ToolResult): string {
  if (result.ok || result.error.kind !== 'approval-pending') throw new Error('expected a pending approval');
  return String(result.error.details?.approvalId);
}
const AUTH_URL = 'https://auth.example.com/authorize?state=PLANTED-STATE-91';

describe('credentials', () => {
  const useKey = defineTool({
    name: 'use_key',
    description: 'Uses an API key.',
    inputSchema: z.object({}),
    needs: { credential: 'search-api' },
    execute: (_args, ctx) => `key of ${ctx.credential?.value.length} chars; ${String(ctx.credential)}`,
  });

  it('resolves needs for the run tenant and principal before execute', async () => {
    const asked: unknown[] = [];
    const provider: CredentialProvider = {
      resolve: async (request, who) => {
        asked.push({ request, who });
        return { kind: 'issued', credential: { credential: 'search-api', value: SECRET } };
      },
    };
    const { events, sink } = record();
    const run = createRuntime({ tools: [useKey], credentials: provider, sinks: [sink] }).startRun({
      identity: { tenant: 'acme', principal: 'ana' },
    });
    const result = await run.call({ tool: 'use_key', args: {} });
    expect(result).toMatchObject({
      ok: true,
      value: `key of ${SECRET.length} chars; [credential search-api]`,
    });
    expect(asked).toEqual([
      { request: { credential: 'search-api' }, who: { tenant: 'acme', principal: 'ana' } },
    ]);
    expect(events.map((event) => event.type)).toContain('credential.acquired');
  });

  it('blocks the tool on failure with credential-failed and credential.failed', async () => {
    let ran = false;
    const tool = defineTool({
      ...useKey,
      execute: () => {
        ran = true;
        return 'ran';
      },
    });
    const { events, sink } = record();
    const runtime = createRuntime({ tools: [tool], credentials: staticCredentials({}), sinks: [sink] });
    const result = await runtime.startRun().call({ tool: 'use_key', args: {} });
    expect(ran).toBe(false);
    expect(result).toMatchObject({ ok: false, error: { kind: 'credential-failed' } });
    expect(events.some((event) => event.type === 'credential.failed')).toBe(true);
  });

  it('fails closed in ctx.credentials without a provider', async () => {
    const pull = defineTool({
      name: 'pull',
      description: 'Pulls a credential.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        expect(ctx.hasCredentials).toBe(false);
        return ctx.credentials.get({ credential: 'x' });
      },
    });
    const result = await createRuntime({ tools: [pull] })
      .startRun()
      .call({ tool: 'pull', args: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'credential-failed', message: /createRuntime\(\{ credentials \}\)/ },
    });
  });

  it('settles authorization-required as data and leaks neither the secret nor the URL anywhere', async () => {
    const urls: string[] = [];
    const provider: CredentialProvider = {
      resolve: async (request) =>
        request.credential === 'calendar'
          ? { kind: 'authorization-required', authorizationUrl: AUTH_URL }
          : { kind: 'issued', credential: { credential: request.credential, value: SECRET } },
    };
    const calendar = defineTool({
      name: 'calendar',
      description: 'Reads the calendar.',
      inputSchema: z.object({}),
      needs: { credential: 'calendar' },
      execute: () => 'events',
    });
    const leaky = defineTool({
      name: 'leaky',
      description: 'Tries hard to leak its key.',
      inputSchema: z.object({}),
      needs: { credential: 'search-api' },
      execute: (_args, ctx) => {
        ctx.progress({ message: `using ${String(ctx.credential)}` });
        ctx.emit('debug', JSON.parse(JSON.stringify({ credential: ctx.credential })));
        throw new Error(`failed with ${ctx.credential?.value}`);
      },
    });
    const { events, sink } = record();
    const status = createStatusModel();
    const runtime = createRuntime({
      tools: [calendar, leaky, useKey],
      credentials: provider,
      onAuthorizationUrl: (_id, url) => urls.push(url),
      sinks: [sink, (event) => void status.apply(event)],
    });
    // No person to ask: the link goes to the host's hook (credential-asks.test.ts asks one).
    const run = runtime.startRun({ identity: { tenant: 't', principal: 'p' }, canAsk: false });
    const results = [
      await run.call({ tool: 'calendar', args: {} }),
      await run.call({ tool: 'leaky', args: {} }),
      await run.call({ tool: 'use_key', args: {} }),
    ];
    await run.end();
    expect(results[0]).toMatchObject({
      ok: false,
      error: { kind: 'authorization-required', details: { authorizationId: expect.any(String) } },
    });
    expect(urls).toEqual([AUTH_URL]);
    const everything = JSON.stringify({ results, events, lines: status.lines() });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(AUTH_URL);
    expect(everything).not.toContain('PLANTED-STATE');
    expect(
      events.some(
        (event) =>
          event.type === 'tool.pending' && (event.data as { reason: string }).reason === 'authorization',
      ),
    ).toBe(true);
  });
});

describe('approval', () => {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays an amount.',
    inputSchema: z.object({ amount: z.number() }),
    effect: 'write',
    needsApproval: ({ amount }) => amount > 100,
    execute: ({ amount }, ctx) => ({ paid: amount, approval: ctx.approval?.approvalId ?? null }),
  });

  it('asks only when the predicate says so, and runs with a one-use approval when approved', async () => {
    const approval = createMemoryApprovalPort({ decide: () => ({ approved: true, reason: 'fine' }) });
    const { events, sink } = record();
    const run = createRuntime({ tools: [pay], approval, sinks: [sink] }).startRun();
    expect(await run.call({ tool: 'pay', args: { amount: 5 } })).toMatchObject({
      value: { paid: 5, approval: null },
    });
    const big = await run.call({ tool: 'pay', args: { amount: 500 } });
    expect(big).toMatchObject({ ok: true, value: { paid: 500, approval: expect.stringMatching(/^apr_/) } });
    expect(approval.requests).toHaveLength(1);
    expect(events.filter((event) => event.type.startsWith('approval.')).map((event) => event.type)).toEqual([
      'approval.requested',
      'approval.decided',
    ]);
  });

  it('settles a denied call as approval-denied without running it', async () => {
    const approval = createMemoryApprovalPort({ decide: () => ({ approved: false, reason: 'too much' }) });
    const result = await createRuntime({ tools: [pay], approval })
      .startRun()
      .call({ tool: 'pay', args: { amount: 500 } });
    expect(result).toMatchObject({ ok: false, error: { kind: 'approval-denied', message: /too much/ } });
  });

  it('settles a pending approval as data and resumes it later, once', async () => {
    const approval = createMemoryApprovalPort();
    const { events, sink } = record();
    const run = createRuntime({ tools: [pay], approval, sinks: [sink] }).startRun();
    const pending = await run.call({ tool: 'pay', args: { amount: 900 } });
    expect(pending).toMatchObject({ ok: false, error: { kind: 'approval-pending' } });
    const approvalId = pendingId(pending);
    const resumed = await run.resume(approvalId, { approved: true });
    expect(resumed).toMatchObject({ ok: true, value: { paid: 900, approval: approvalId } });
    expect(await run.resume(approvalId, { approved: true })).toMatchObject({
      ok: false,
      error: { kind: 'approval-invalid' },
    });
    const callEvents = events.filter(
      (event) => event.callId === events.find((e) => e.type === 'tool.pending')?.callId,
    );
    expect(callEvents.map((event) => event.type)).toEqual([
      'tool.started',
      'approval.requested',
      'tool.pending',
      'approval.decided',
      'tool.finished',
    ]);
  });

  it('resumes a denial as approval-denied', async () => {
    const run = createRuntime({ tools: [pay], approval: createMemoryApprovalPort() }).startRun();
    const pending = await run.call({ tool: 'pay', args: { amount: 900 } });
    const approvalId = pendingId(pending);
    expect(await run.resume(approvalId, { approved: false })).toMatchObject({
      ok: false,
      error: { kind: 'approval-denied' },
    });
  });

  it('does not let a child call inherit its parent approval', async () => {
    const approval = createMemoryApprovalPort({
      decide: (request) => (request.toolName === 'outer' ? { approved: true } : 'pending'),
    });
    const outer = defineTool({
      name: 'outer',
      description: 'Approved, then calls pay.',
      inputSchema: z.object({}),
      effect: 'write',
      needsApproval: true,
      execute: (_args, ctx) => ctx.tools!.call({ tool: 'pay', args: { amount: 1_000 } }),
    });
    const result = await createRuntime({ tools: [outer, pay], approval })
      .startRun()
      .call({ tool: 'outer', args: {} });
    expect(result).toMatchObject({ ok: true, value: { ok: false, error: { kind: 'approval-pending' } } });
    expect(approval.requests.map((request) => request.toolName)).toEqual(['outer', 'pay']);
  });

  it('refuses needsApproval without an approval port at construction', () => {
    expect(() => createRuntime({ tools: [pay] })).toThrow(/needsApproval.*createRuntime\(\{ approval \}\)/);
  });
});
