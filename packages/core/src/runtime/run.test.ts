import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolctxError } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createStatusModel } from '../status/status-model.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }, ctx) => `${text} (${ctx.iteration})`,
});
const leaky = defineTool({
  name: 'leaky',
  description: 'Throws an error holding a secret.',
  inputSchema: z.object({}),
  execute: () => {
    throw new Error('secret-value');
  },
});
const asyncLeaky = defineTool({
  name: 'async_leaky',
  description: 'Rejects with a secret.',
  inputSchema: z.object({}),
  execute: async () => {
    throw new TypeError('secret-value');
  },
});

function recorded() {
  const events: ToolEvent[] = [];
  return { events, sink: (event: ToolEvent) => void events.push(event) };
}

describe('runs', () => {
  it('calls a tool and resolves to its value and transcript copy', async () => {
    const run = createRuntime({ tools: [echo] }).startRun();
    expect(await run.call({ tool: 'echo', args: { text: 'hi' } })).toEqual({
      ok: true,
      value: 'hi (1)',
      content: 'hi (1)',
    });
  });

  it('counts batches as iterations and runs a batch concurrently', async () => {
    const order: string[] = [];
    const slow = defineTool({
      name: 'slow',
      description: 'Waits, then answers.',
      inputSchema: z.object({ id: z.string(), ms: z.number() }),
      execute: async ({ id, ms }, ctx) => {
        order.push(`start ${id}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`end ${id}`);
        return { id, iteration: ctx.iteration };
      },
    });
    const run = createRuntime({ tools: [slow] }).startRun();
    await run.call({ tool: 'slow', args: { id: 'first', ms: 0 } });
    const results = await run.callBatch([
      { tool: 'slow', args: { id: 'a', ms: 30 } },
      { tool: 'slow', args: { id: 'b', ms: 5 } },
    ]);
    expect(results.map((result) => result.ok && result.value)).toEqual([
      { id: 'a', iteration: 2 },
      { id: 'b', iteration: 2 },
    ]);
    expect(order.slice(2)).toEqual(['start a', 'start b', 'end b', 'end a']);
  });

  it('never rejects for a tool failure, and shows only the class name of a foreign exception', async () => {
    const { events, sink } = recorded();
    const run = createRuntime({ tools: [leaky, asyncLeaky], sinks: [sink] }).startRun();
    const status = createStatusModel();
    run.events.subscribe((event) => status.apply(event));
    const sync = await run.call({ tool: 'leaky', args: {} });
    const rejected = await run.call({ tool: 'async_leaky', args: {} });
    expect(sync).toEqual({
      ok: false,
      error: {
        kind: 'tool-error',
        message: 'The tool failed with Error.',
        exception: 'Error',
        retryable: false,
      },
    });
    expect(rejected.ok === false && rejected.error.exception).toBe('TypeError');
    const everything = JSON.stringify([sync, rejected, events, status.lines()]);
    expect(everything).not.toContain('secret-value');
    expect(everything).toContain('failed with TypeError');
  });

  it('records run.started, the calls and run.finished, with seq growing by one', async () => {
    const { events, sink } = recorded();
    const run = createRuntime({ tools: [echo], sinks: [sink] }).startRun({ sessionId: 's-1' });
    await run.call({ tool: 'echo', args: { text: 'a' } });
    await run.end();
    expect(events.map((event) => event.type)).toEqual([
      'run.started',
      'tool.started',
      'tool.finished',
      'run.finished',
    ]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(new Set(events.map((event) => event.runId))).toEqual(new Set([run.runId]));
    expect(events[0]!.data).toEqual({ phase: 'act', sessionId: 's-1' });
    expect(events[3]!.data).toEqual({ status: 'ended', calls: 1 });
  });

  it("shares one frozen tool.started data per tool, so no sink can change another call's event", async () => {
    const { events, sink } = recorded();
    const meddler = (event: ToolEvent) => {
      if (event.type === 'tool.started') (event.data as { tool: string }).tool = 'changed';
    };
    const failures: unknown[] = [];
    const run = createRuntime({
      tools: [echo],
      sinks: [sink, meddler],
      onSinkError: (error) => failures.push(error),
    }).startRun();
    await run.call({ tool: 'echo', args: { text: 'a' } });
    await run.call({ tool: 'echo', args: { text: 'b' } });
    const started = events.filter((event) => event.type === 'tool.started');
    expect(started.map((event) => event.data)).toEqual([{ tool: 'echo' }, { tool: 'echo' }]);
    expect(started[0]!.data).toBe(started[1]!.data);
    expect(Object.isFrozen(started[0]!.data)).toBe(true);
    // The meddling sink threw on the frozen data, was reported once and detached.
    expect(failures).toHaveLength(1);
  });

  it('shares one frozen tool.finished data per tool and short duration; a longer call gets its own', async () => {
    const { events, sink } = recorded();
    const slow = defineTool({
      name: 'slow',
      description: 'Takes 20 ms of the (fake) clock.',
      inputSchema: z.object({}),
      execute: () => void vi.advanceTimersByTime(20),
    });
    vi.useFakeTimers();
    try {
      const run = createRuntime({ tools: [echo, slow], sinks: [sink] }).startRun();
      await run.call({ tool: 'echo', args: { text: 'a' } });
      await run.call({ tool: 'echo', args: { text: 'b' } });
      await run.call({ tool: 'slow', args: {} });
      await run.call({ tool: 'slow', args: {} });
    } finally {
      vi.useRealTimers();
    }
    const finished = events.filter((event) => event.type === 'tool.finished').map((event) => event.data);
    expect(finished).toEqual([
      { tool: 'echo', durationMs: 0 },
      { tool: 'echo', durationMs: 0 },
      { tool: 'slow', durationMs: 20 },
      { tool: 'slow', durationMs: 20 },
    ]);
    expect(finished[0]).toBe(finished[1]);
    expect(Object.isFrozen(finished[0])).toBe(true);
    expect(finished[2]).not.toBe(finished[3]);
  });

  it('refuses calls once the run has ended', async () => {
    const run = createRuntime({ tools: [echo] }).startRun();
    await run.end();
    const result = await run.call({ tool: 'echo', args: { text: 'late' } });
    expect(result.ok === false && result.error).toMatchObject({ kind: 'aborted', message: /has ended/ });
  });

  it('gives each run its own id and fresh call ids unless the caller names one', async () => {
    const seen: string[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Reports its ids.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => void seen.push(`${ctx.runId}:${ctx.toolCallId}`),
    });
    const runtime = createRuntime({ tools: [probe] });
    const first = runtime.startRun();
    const second = runtime.startRun();
    expect(first.runId).not.toBe(second.runId);
    await first.call({ tool: 'probe', args: {}, toolCallId: 'model-call-7' });
    await first.call({ tool: 'probe', args: {} });
    expect(seen[0]).toBe(`${first.runId}:model-call-7`);
    expect(seen[1]).toMatch(new RegExp(`^${first.runId}:call_`));
  });

  it('delivers the same events to an async iterator, ending when the run ends', async () => {
    const run = createRuntime({ tools: [echo] }).startRun();
    const collected = (async () => {
      const types: string[] = [];
      for await (const event of run.events) types.push(event.type);
      return types;
    })();
    await run.call({ tool: 'echo', args: { text: 'x' } });
    await run.end();
    expect(await collected).toEqual(['tool.started', 'tool.finished', 'run.finished']);
  });
});

describe('retries', () => {
  it('retries a retryable failure with tool.retry events, then succeeds', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails twice.',
      inputSchema: z.object({}),
      retry: { attempts: 3, backoffMs: 1 },
      execute: async () => {
        attempts++;
        if (attempts < 3) throw new ToolctxError('tool-error', 'busy', { retryable: true });
        return 'ok';
      },
    });
    const { events, sink } = recorded();
    const run = createRuntime({ tools: [flaky], sinks: [sink] }).startRun();
    expect(await run.call({ tool: 'flaky', args: {} })).toMatchObject({ ok: true, value: 'ok' });
    expect(events.filter((event) => event.type === 'tool.retry').map((event) => event.data)).toEqual([
      expect.objectContaining({ attempt: 2, delayMs: 1 }),
      expect.objectContaining({ attempt: 3, delayMs: 2 }),
    ]);
  });

  it('does not retry a failure that is not retryable', async () => {
    let attempts = 0;
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      inputSchema: z.object({}),
      retry: { attempts: 5 },
      execute: () => {
        attempts++;
        throw new Error('no');
      },
    });
    await createRuntime({ tools: [broken] })
      .startRun()
      .call({ tool: 'broken', args: {} });
    expect(attempts).toBe(1);
  });

  it('never retries an aborted call', async () => {
    let attempts = 0;
    const waits = defineTool({
      name: 'waits',
      description: 'Waits for its signal.',
      inputSchema: z.object({}),
      retry: { attempts: 5 },
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          attempts++;
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const controller = new AbortController();
    const pending = createRuntime({ tools: [waits] })
      .startRun()
      .call({ tool: 'waits', args: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect((await pending).ok === false && (await pending)).toMatchObject({ error: { kind: 'aborted' } });
    expect(attempts).toBe(1);
  });
});
