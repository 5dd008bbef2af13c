import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

describe('nested dispatch through ctx.tools', () => {
  it('runs a child call in the same run, phase and iteration, linked by parentId; its failure is data', async () => {
    const facts: Record<string, unknown>[] = [];
    const inner = defineTool({
      name: 'inner',
      description: 'Reports its facts, fails when asked.',
      inputSchema: z.object({ fail: z.boolean() }),
      execute: ({ fail }, ctx) => {
        facts.push({ runId: ctx.runId, phase: ctx.phase, iteration: ctx.iteration });
        if (fail) throw new RangeError('inner secret');
        return 'inner ok';
      },
    });
    const outer = defineTool({
      name: 'outer',
      description: 'Calls inner twice.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        const good = await ctx.tools!.call({ tool: 'inner', args: { fail: false } });
        const bad = await ctx.tools!.call({ tool: 'inner', args: { fail: true } });
        return { good, bad, outerCall: ctx.toolCallId };
      },
    });
    const events: ToolEvent[] = [];
    const run = createRuntime({ tools: [inner, outer], sinks: [(e) => void events.push(e)] }).startRun({
      phase: 'plan',
    });
    const result = await run.call({ tool: 'outer', args: {} });
    expect(result.ok).toBe(true);
    const value = (result as { value: { good: unknown; bad: unknown; outerCall: string } }).value;
    expect(value.good).toMatchObject({ ok: true, value: 'inner ok' });
    expect(value.bad).toMatchObject({ ok: false, error: { kind: 'tool-error', exception: 'RangeError' } });
    expect(facts).toEqual([
      { runId: run.runId, phase: 'plan', iteration: 1 },
      { runId: run.runId, phase: 'plan', iteration: 1 },
    ]);
    const childEvents = events.filter((e) => (e.data as { tool?: string }).tool === 'inner');
    expect(childEvents.length).toBe(4);
    expect(childEvents.every((e) => e.parentId === value.outerCall)).toBe(true);
    expect(JSON.stringify(events)).not.toContain('inner secret');
  });

  it('refuses a child call started after the parent settled', async () => {
    let saved: ((request: { tool: string; args: unknown }) => Promise<unknown>) | undefined;
    const leaf = defineTool({
      name: 'leaf',
      description: 'Leaf.',
      inputSchema: z.object({}),
      execute: () => 1,
    });
    const quick = defineTool({
      name: 'quick',
      description: 'Keeps its dispatch for later.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        saved = (request) => ctx.tools!.call(request);
      },
    });
    const run = createRuntime({ tools: [leaf, quick] }).startRun();
    await run.call({ tool: 'quick', args: {} });
    expect(await saved!({ tool: 'leaf', args: {} })).toMatchObject({
      ok: false,
      error: {
        kind: 'call-settled',
        message: expect.stringMatching(
          /^"quick" has already ended \(finished\), so ctx\.tools\.call was refused/,
        ),
      },
    });
  });
});
