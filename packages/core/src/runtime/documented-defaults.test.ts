// The defaults `RuntimeOptions` documents (runtime-options.ts) are promises: each test here uses
// `createRuntime` without the option and pins the documented value with a literal, so changing a
// default fails a test instead of silently changing what users get.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const record = () => {
  const events: ToolEvent[] = [];
  return { events, sink: (event: ToolEvent) => void events.push(event) };
};

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('outputBudgetBytes: "Default 32,000"', () => {
  const sized = defineTool({
    name: 'sized',
    description: 'Returns `count` copies of `unit`, then `tail`.',
    inputSchema: z.object({ unit: z.string(), count: z.number(), tail: z.string().default('') }),
    execute: ({ unit, count, tail }) => unit.repeat(count) + tail,
  });

  // Both texts fail the cheap `length * 3` pre-check, so they go through the exact UTF-8
  // measurement of spillAndCut; the two-byte one pins bytes, not characters.
  it.each([
    ['32,000 ASCII characters', { unit: 'x', count: 32_000 }],
    ['16,000 two-byte characters', { unit: 'é', count: 16_000 }],
  ])('returns a 32,000-byte transcript of %s whole, with no artifact store', async (_label, args) => {
    const { events, sink } = record();
    const result = await createRuntime({ tools: [sized], sinks: [sink] })
      .startRun()
      .call({ tool: 'sized', args });
    const text = args.unit.repeat(args.count);
    expect(bytes(text)).toBe(32_000);
    expect(result).toEqual({ ok: true, value: text, content: text });
    expect(events.map((event) => event.type)).not.toContain('output.spilled');
  });

  it('returns a 32,000-byte transcript whole with a store, saving nothing', async () => {
    const { events, sink } = record();
    const runtime = createRuntime({ tools: [sized], artifacts: createMemoryArtifactStore(), sinks: [sink] });
    const result = await runtime.startRun().call({ tool: 'sized', args: { unit: 'x', count: 32_000 } });
    expect(result).toEqual({ ok: true, value: 'x'.repeat(32_000), content: 'x'.repeat(32_000) });
    expect(events.map((event) => event.type)).not.toContain('artifact.put');
    expect(events.map((event) => event.type)).not.toContain('output.spilled');
  });

  it.each([
    ['32,001 ASCII characters', { unit: 'x', count: 32_001, tail: '' }],
    ['16,000 two-byte characters and one ASCII one', { unit: 'é', count: 16_000, tail: 'x' }],
  ])(
    'cuts a 32,001-byte transcript of %s to fit 32,000 bytes, with no artifact store',
    async (_label, args) => {
      const { events, sink } = record();
      const result = await createRuntime({ tools: [sized], sinks: [sink] })
        .startRun()
        .call({ tool: 'sized', args });
      if (!result.ok) throw new Error('expected a result');
      const text = args.unit.repeat(args.count) + args.tail;
      expect(bytes(text)).toBe(32_001);
      expect(result.value).toBe(text);
      expect(bytes(result.content)).toBeLessThanOrEqual(32_000);
      expect(result.content).toMatch(
        /\n… \[cut: [\d,]+ of 32,001 bytes shown; [\d,]+ bytes were lost \(no artifact store to keep them\)\]$/,
      );
      expect(result.spilled).toEqual({ bytes: 32_001, keptBytes: expect.any(Number) });
      // Kept is the budget less the marker: far more than a smaller default would keep.
      expect(result.spilled!.keptBytes).toBeGreaterThan(31_900);
      expect(text.startsWith(result.content.slice(0, result.content.indexOf('\n… [cut:')))).toBe(true);
      expect(events.find((event) => event.type === 'output.spilled')?.data).toEqual({
        tool: 'sized',
        bytes: 32_001,
        keptBytes: result.spilled!.keptBytes,
      });
    },
  );

  it('spills a 32,001-byte transcript whole to the artifact store and cuts the copy to fit 32,000 bytes', async () => {
    const store = createMemoryArtifactStore();
    const run = createRuntime({ tools: [sized], artifacts: store }).startRun({
      identity: { tenant: 't', principal: 'p' },
    });
    const result = await run.call({ tool: 'sized', args: { unit: 'x', count: 32_001 } });
    if (!result.ok) throw new Error('expected a result');
    expect(result.spilled).toEqual({
      ref: expect.stringMatching(/^art_/),
      bytes: 32_001,
      keptBytes: expect.any(Number),
    });
    expect(result.spilled!.keptBytes).toBeGreaterThan(31_900);
    expect(bytes(result.content)).toBeLessThanOrEqual(32_000);
    expect(result.content).toBe(
      `${'x'.repeat(result.spilled!.keptBytes)}\n… [cut: ${result.spilled!.keptBytes.toLocaleString('en-US')} of 32,001 bytes shown; the whole result is artifact ${result.spilled!.ref}]`,
    );
    const saved = await store.get({ tenant: 't', principal: 'p', conversation: '' }, result.spilled!.ref!);
    expect(saved?.data).toBe('x'.repeat(32_001));
  });
});

describe('teardownTimeoutMs: "Default 5,000"', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 5,000 ms for a run cleanup that never settles, then reports teardown.failed (timeout)', async () => {
    vi.useFakeTimers();
    const { events, sink } = record();
    const holder = defineTool({
      name: 'holder',
      description: 'Registers a run cleanup that never settles.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.onTeardown(() => new Promise(() => {}), { scope: 'run' });
        return 'held';
      },
    });
    const run = createRuntime({ tools: [holder], sinks: [sink] }).startRun();
    expect(await run.call({ tool: 'holder', args: {} })).toMatchObject({ ok: true, value: 'held' });
    let ended = false;
    const ending = run.end().then(() => {
      ended = true;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(ended).toBe(false);
    expect(events.map((event) => event.type)).not.toContain('teardown.failed');
    await vi.advanceTimersByTimeAsync(1);
    await ending;
    expect(ended).toBe(true);
    const failed = events.find((event) => event.type === 'teardown.failed');
    expect(failed?.data).toEqual({
      scope: 'run',
      tool: 'holder',
      error: {
        kind: 'timeout',
        message:
          'The run cleanup of `holder` did not finish within 5000 ms; the next cleanup went ahead without it.',
        retryable: false,
        details: { scope: 'run', toolName: 'holder', timeoutMs: 5_000 },
      },
    });
    expect(events.at(-1)?.type).toBe('run.finished');
  });
});

describe('onSinkError: "Default: `console.warn`"', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('warns once through console.warn about a sink that threw, detaches it, and the run goes on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const echo = defineTool({
      name: 'echo',
      description: 'Says it back.',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    const reached: string[] = [];
    const throwing = (event: ToolEvent) => {
      reached.push(event.type);
      throw new TypeError('sink down');
    };
    const { events, sink } = record();
    const run = createRuntime({ tools: [echo], sinks: [throwing, sink] }).startRun();
    expect(await run.call({ tool: 'echo', args: { text: 'a' } })).toEqual({
      ok: true,
      value: 'a',
      content: 'a',
    });
    expect(await run.call({ tool: 'echo', args: { text: 'b' } })).toEqual({
      ok: true,
      value: 'b',
      content: 'b',
    });
    await run.end();
    expect(reached).toEqual(['run.started']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      'toolctx: an event sink threw TypeError on run.started and was detached.',
    );
    expect(events.map((event) => event.type)).toEqual([
      'run.started',
      'tool.started',
      'tool.finished',
      'tool.started',
      'tool.finished',
      'run.finished',
    ]);
  });
});
