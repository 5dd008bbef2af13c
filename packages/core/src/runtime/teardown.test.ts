import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import { teardownKey } from '../teardown/teardown-key.js';
import type { TeardownScope } from '../teardown/teardown-registry.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

function harness(how: 'resolve' | 'throw' | 'hang' | 'deaf', scope: TeardownScope = 'call') {
  const fired: string[] = [];
  const events: ToolEvent[] = [];
  const tool = defineTool({
    name: 'holder',
    description: 'Holds a resource, then ends as told.',
    inputSchema: z.object({ label: z.string() }),
    timeoutMs: 50,
    execute: async ({ label }, ctx) => {
      ctx.onTeardown(() => fired.push(label), { scope });
      if (how === 'throw') throw new Error('boom');
      if (how === 'hang') return new Promise(() => {});
      if (how === 'deaf') return new Promise((resolve) => setTimeout(resolve, 10_000));
      return label;
    },
  });
  const runtime = createRuntime({ tools: [tool], sinks: [(event) => void events.push(event)] });
  return { runtime, fired, events };
}

describe('teardown', () => {
  it.each([
    ['resolved', 'resolve'],
    ['threw', 'throw'],
    ['timed out', 'hang'],
  ] as const)('fires a call cleanup exactly once when the tool %s', async (_how, how) => {
    const { runtime, fired, events } = harness(how);
    const run = runtime.startRun();
    await run.call({ tool: 'holder', args: { label: 'a' } });
    expect(fired).toEqual(['a']);
    await run.end();
    await tick(60);
    expect(fired).toEqual(['a']);
    expect(events.filter((event) => event.type === 'teardown.fired')).toHaveLength(1);
  });

  it('fires a call cleanup when the call is aborted, even if the tool ignores the signal', async () => {
    const { runtime, fired } = harness('deaf');
    const controller = new AbortController();
    const pending = runtime
      .startRun()
      .call({ tool: 'holder', args: { label: 'x' }, signal: controller.signal });
    await tick();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(fired).toEqual(['x']);
  });

  it('fires run cleanups at run end, last in first out, the first per tool winning', async () => {
    const fired: string[] = [];
    const tools = ['one', 'two'].map((name) =>
      defineTool({
        name,
        description: 'Registers a run cleanup.',
        inputSchema: z.object({ n: z.number() }),
        execute: ({ n }, ctx) => ctx.onTeardown(() => fired.push(`${name}#${n}`), { scope: 'run' }),
      }),
    );
    const run = createRuntime({ tools }).startRun();
    const runKey = teardownKey({ runId: run.runId }, 'run');
    expect(await run.call({ tool: 'one', args: { n: 1 } })).toMatchObject({ value: runKey });
    expect(await run.call({ tool: 'two', args: { n: 1 } })).toMatchObject({ value: runKey });
    expect(await run.call({ tool: 'one', args: { n: 2 } })).toMatchObject({ value: runKey });
    expect(fired).toEqual([]);
    await run.end();
    expect(fired).toEqual(['two#1', 'one#1']);
  });

  it('fires session cleanups at closeSession and shutdown cleanups at shutdown', async () => {
    const fired: string[] = [];
    const keeper = defineTool({
      name: 'keeper',
      description: 'Registers session and shutdown cleanups.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.onTeardown(() => fired.push(`session ${ctx.sessionId}`), { scope: 'session' });
        ctx.onTeardown(() => fired.push('shutdown'), { scope: 'shutdown' });
      },
    });
    const runtime = createRuntime({ tools: [keeper] });
    const run = runtime.startRun({ sessionId: 's-1', identity: { tenant: 't', principal: 'p' } });
    await run.call({ tool: 'keeper', args: {} });
    await run.end();
    expect(fired).toEqual([]);
    await runtime.closeSession('s-1', { tenant: 't', principal: 'p' });
    expect(fired).toEqual(['session s-1']);
    await runtime.shutdown();
    expect(fired).toEqual(['session s-1', 'shutdown']);
  });

  it('fires only the closing identity’s session cleanups: a stranger with the same sessionId neither fires yours nor loses theirs', async () => {
    const fired: string[] = [];
    const keeper = defineTool({
      name: 'keeper',
      description: 'Registers a session cleanup named after its caller.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        ctx.onTeardown(() => fired.push(`${ctx.identity?.tenant ?? 'anonymous'}`), { scope: 'session' }),
    });
    const runtime = createRuntime({ tools: [keeper] });
    const ana = { tenant: 'acme', principal: 'ana' };
    const mallory = { tenant: 'evil', principal: 'ana' };
    for (const identity of [ana, mallory, undefined]) {
      const run = runtime.startRun({ sessionId: 's-1', identity });
      await run.call({ tool: 'keeper', args: {} });
      await run.end();
    }
    await runtime.closeSession('s-1', mallory);
    expect(fired).toEqual(['evil']);
    await runtime.closeSession('s-1', { tenant: 'acme' }); // ana's tenant, another principal
    await runtime.closeSession('s-1', { principal: 'ana' });
    expect(fired).toEqual(['evil']);
    await runtime.closeSession('s-1');
    expect(fired).toEqual(['evil', 'anonymous']);
    await runtime.closeSession('s-1', { ...ana, conversationId: 'c-9' }); // a conversation is not a session
    expect(fired).toEqual(['evil', 'anonymous', 'acme']);
  });

  it('reports a failing cleanup as teardown.failed and never throws it', async () => {
    const events: ToolEvent[] = [];
    const bad = defineTool({
      name: 'bad',
      description: 'Registers a failing cleanup.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.onTeardown(
          () => {
            throw new Error('secret in cleanup');
          },
          { scope: 'call' },
        );
        return 'fine';
      },
    });
    const result = await createRuntime({ tools: [bad], sinks: [(event) => void events.push(event)] })
      .startRun()
      .call({ tool: 'bad', args: {} });
    expect(result).toMatchObject({ ok: true, value: 'fine' });
    const failed = events.find((event) => event.type === 'teardown.failed');
    expect(failed?.data).toMatchObject({ scope: 'call', tool: 'bad' });
    expect(JSON.stringify(events)).not.toContain('secret in cleanup');
  });

  it('refuses a scope the door does not honour, naming the door', async () => {
    const tool = defineTool({
      name: 'runner',
      description: 'Wants a run cleanup.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ctx.onTeardown(() => {}, { scope: 'run' }),
    });
    const runtime = createRuntime({ tools: [tool] }).withDoor({
      name: 'mcp',
      teardownScopes: ['call'],
      runIds: false,
      dispatch: false,
    });
    const result = await runtime.callOnce({ tool: 'runner', args: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'unsupported', message: /The mcp door does not honour teardown scope 'run'/ },
    });
  });

  it('returns the key it registered under: teardownKey(ctx, scope), its tenant, principal and session', async () => {
    const tool = defineTool({
      name: 'keyed',
      description: 'Registers a session cleanup and tells its key.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ({
        key: ctx.onTeardown(() => {}, { scope: 'session' }),
        composed: teardownKey(ctx, 'session'),
      }),
    });
    const run = createRuntime({ tools: [tool] }).startRun({
      sessionId: 's-1',
      identity: { tenant: 't', principal: 'p' },
    });
    const result = await run.call({ tool: 'keyed', args: {} });
    expect(result).toMatchObject({
      ok: true,
      value: { key: 'session|t:t|p:p|s:s-1', composed: 'session|t:t|p:p|s:s-1' },
    });
  });

  it('refuses a cleanup that is not a function, naming the call shape', async () => {
    const tool = defineTool({
      name: 'no_cleanup',
      description: 'Passes no function.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ctx.onTeardown('close' as never, { scope: 'run' }),
    });
    const result = await createRuntime({ tools: [tool] })
      .startRun()
      .call({ tool: 'no_cleanup', args: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'args-invalid', message: /ctx\.onTeardown\(\(\) => close\(\), \{ scope \}\)/ },
    });
  });
});
