import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

// Three ways a call is cancelled — the run, the caller, the tool's timeout — each reaching
// (a) the tool's ctx.signal, (b) a nested call through ctx.tools, (c) a tool that ignores its signal.

const seen = { parent: [] as string[], child: [] as string[] };

const child = defineTool({
  name: 'child',
  description: 'Waits for its signal.',
  inputSchema: z.object({}),
  execute: (_args, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        seen.child.push(String((ctx.signal.reason as Error).message));
        reject(ctx.signal.reason);
      });
    }),
});
const parent = defineTool({
  name: 'parent',
  description: 'Calls the child, then waits for its own signal.',
  inputSchema: z.object({}),
  timeoutMs: 10_000,
  execute: async (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => seen.parent.push((ctx.signal.reason as Error).message));
    const childResult = await ctx.tools!.call({ tool: 'child', args: {} });
    return { childResult };
  },
});
const deaf = defineTool({
  name: 'deaf',
  description: 'Ignores its signal and answers late.',
  inputSchema: z.object({ ms: z.number() }),
  execute: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve('late result'), ms)),
});
const deafWithTimeout = defineTool({ ...deaf, name: 'deaf_timeout', timeoutMs: 20 });
const parentWithTimeout = defineTool({ ...parent, name: 'parent_timeout', timeoutMs: 20 });

function setup() {
  seen.parent = [];
  seen.child = [];
  const events: ToolEvent[] = [];
  const runtime = createRuntime({
    tools: [child, parent, deaf, deafWithTimeout, parentWithTimeout],
    sinks: [(event) => void events.push(event)],
  });
  return { runtime, events };
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cancellation by the run', () => {
  it('reaches ctx.signal and a nested call, and settles both as aborted', async () => {
    const { runtime, events } = setup();
    const run = runtime.startRun();
    const pending = run.call({ tool: 'parent', args: {} });
    await tick();
    await run.abort('the user stopped');
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted', message: /the user stopped/ } });
    expect(seen.parent).toHaveLength(1);
    expect(seen.child).toHaveLength(1);
    const failed = events.filter((event) => event.type === 'tool.failed');
    expect(failed.map((event) => (event.data as { tool: string }).tool).sort()).toEqual(['child', 'parent']);
    const childFailed = failed.find((event) => (event.data as { tool: string }).tool === 'child')!;
    expect(childFailed.parentId).toBe(failed.find((event) => event.callId === childFailed.parentId)?.callId);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', data: { status: 'aborted' } });
  });

  it('settles a tool that ignores its signal at once, and drops its late result', async () => {
    const { runtime, events } = setup();
    const run = runtime.startRun();
    const pending = run.call({ tool: 'deaf', args: { ms: 3000 } });
    await tick();
    const before = Date.now();
    await run.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(Date.now() - before).toBeLessThan(1000); // the tool would take 3 s
    expect(events.filter((event) => event.type === 'tool.finished')).toHaveLength(0);
    expect(events.at(-1)?.type).toBe('run.finished');
  });

  it('aborts through the signal given to startRun', async () => {
    const { runtime } = setup();
    const controller = new AbortController();
    const run = runtime.startRun({ signal: controller.signal });
    const pending = run.call({ tool: 'parent', args: {} });
    await tick();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(seen.child).toHaveLength(1);
    expect(run.signal.aborted).toBe(true);
  });
});

describe("cancellation by the caller's signal", () => {
  it('reaches ctx.signal and a nested call', async () => {
    const { runtime } = setup();
    const controller = new AbortController();
    const pending = runtime.startRun().call({ tool: 'parent', args: {}, signal: controller.signal });
    await tick();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted', message: /by its caller/ } });
    expect(seen.parent).toEqual(['The call was cancelled by its caller.']);
    expect(seen.child).toEqual(['The parent call ended.']);
  });

  it('settles a tool that ignores it at once', async () => {
    const { runtime } = setup();
    const controller = new AbortController();
    const pending = runtime.startRun().call({ tool: 'deaf', args: { ms: 3000 }, signal: controller.signal });
    await tick();
    const before = Date.now();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(Date.now() - before).toBeLessThan(1000); // the tool would take 3 s
  });

  it('does not run the tool at all when the signal is already aborted', async () => {
    const { runtime } = setup();
    const result = await runtime.startRun().call({ tool: 'parent', args: {}, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(seen.parent).toEqual([]);
    expect(seen.child).toEqual([]);
  });
});

describe("cancellation by the tool's timeout", () => {
  it('reaches ctx.signal and a nested call, and settles as timeout', async () => {
    const { runtime } = setup();
    const result = await runtime.startRun().call({ tool: 'parent_timeout', args: {} });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout', retryable: true } });
    expect(seen.parent).toEqual(['"parent_timeout" did not finish within its 20 ms timeout.']);
    expect(seen.child).toEqual(['The parent call ended.']);
  });

  it('settles a tool that ignores it at its timeout and discards the late result', async () => {
    const { runtime, events } = setup();
    const before = Date.now();
    const result = await runtime.startRun().call({ tool: 'deaf_timeout', args: { ms: 400 } });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(Date.now() - before).toBeLessThan(300); // its timeout is 20 ms; the tool takes 400
    await tick(450);
    expect(JSON.stringify(events)).not.toContain('late result');
    expect(events.filter((event) => event.type === 'tool.finished')).toHaveLength(0);
  });
});

describe('the lazy signal', () => {
  it('is made on first read, and already aborted when read after the call was cancelled', async () => {
    let late: AbortSignal | undefined;
    const lazy = defineTool({
      name: 'lazy',
      description: 'Reads its signal only after a while.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        await tick(30);
        late = ctx.signal;
      },
    });
    const controller = new AbortController();
    const pending = createRuntime({ tools: [lazy] })
      .startRun()
      .call({ tool: 'lazy', args: {}, signal: controller.signal });
    await tick(); // the tool is running
    controller.abort();
    await pending;
    await tick(40);
    expect(late?.aborted).toBe(true);
  });
});
