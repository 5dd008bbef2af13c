import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { CachePort } from '../cache/cache-port.js';
import { createMemoryCache } from '../cache/memory-cache.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createMemoryLedger } from '../ledger/memory-ledger.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const record = () => {
  const events: ToolEvent[] = [];
  return { events, sink: (event: ToolEvent) => void events.push(event) };
};

const save = defineTool({
  name: 'save',
  description: 'Saves a note as an artifact.',
  inputSchema: z.object({ text: z.string() }),
  effect: 'write',
  execute: async ({ text }, ctx) => ctx.artifacts.put({ kind: 'note', data: text }),
});
const listMine = defineTool({
  name: 'list_mine',
  description: 'Lists the artifacts it can see.',
  inputSchema: z.object({}),
  execute: async (_args, ctx) => (await ctx.artifacts.list()).artifacts.map((meta) => meta.ref),
});

describe('ctx.artifacts', () => {
  it('is bound to the run scope and stamps origin from the run', async () => {
    const store = createMemoryArtifactStore();
    const { events, sink } = record();
    const runtime = createRuntime({ tools: [save, listMine], artifacts: store, sinks: [sink] });
    const ana = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' } });
    const bob = runtime.startRun({ identity: { tenant: 'acme', principal: 'bob' } });
    const saved = await ana.call({ tool: 'save', args: { text: 'hello' }, toolCallId: 'c-1' });
    const meta = saved.ok ? (saved.value as { ref: string; origin: unknown }) : undefined;
    expect(meta?.origin).toEqual({ runId: ana.runId, toolCallId: 'c-1' });
    expect(await ana.call({ tool: 'list_mine', args: {} })).toMatchObject({ value: [meta?.ref] });
    expect(await bob.call({ tool: 'list_mine', args: {} })).toMatchObject({ value: [] });
    expect(
      await store.head({ tenant: 'acme', principal: 'ana', conversation: '' }, meta!.ref),
    ).not.toBeNull();
    expect(events.find((event) => event.type === 'artifact.put')?.data).toMatchObject({
      ref: meta?.ref,
      kind: 'note',
    });
  });

  it('gives anonymous runs a scope of their own', async () => {
    const runtime = createRuntime({ tools: [save, listMine], artifacts: createMemoryArtifactStore() });
    const first = runtime.startRun();
    await first.call({ tool: 'save', args: { text: 'x' } });
    expect(await runtime.startRun().call({ tool: 'list_mine', args: {} })).toMatchObject({ value: [] });
  });

  it('fails closed without a store, naming createRuntime({ artifacts })', async () => {
    const probe = defineTool({
      name: 'probe',
      description: 'Tries the store.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        expect(ctx.hasArtifacts).toBe(false);
        await ctx.artifacts.put({ kind: 'x', data: 'y' });
      },
    });
    const result = await createRuntime({ tools: [probe] })
      .startRun()
      .call({ tool: 'probe', args: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'no-store', message: /createRuntime\(\{ artifacts \}\)/ },
    });
  });
});

describe('wants', () => {
  const summarize = defineTool({
    name: 'summarize',
    description: 'Summarizes a note artifact.',
    inputSchema: z.object({ note: z.string(), other: z.string().optional() }),
    wants: { note: 'note', other: 'note' },
    execute: (args, ctx) => ({ text: args.note, meta: ctx.wanted?.note?.kind }),
  });

  it('replaces the ref by the data and sets ctx.wanted', async () => {
    const runtime = createRuntime({ tools: [save, summarize], artifacts: createMemoryArtifactStore() });
    const run = runtime.startRun({ identity: { tenant: 't', principal: 'p' } });
    const saved = await run.call({ tool: 'save', args: { text: 'the note' } });
    const ref = (saved as { value: { ref: string } }).value.ref;
    expect(await run.call({ tool: 'summarize', args: { note: ref } })).toMatchObject({
      ok: true,
      value: { text: 'the note', meta: 'note' },
    });
  });

  it('judges every argument and lists valid refs of the wanted kind', async () => {
    const { events, sink } = record();
    const runtime = createRuntime({
      tools: [save, summarize],
      artifacts: createMemoryArtifactStore(),
      sinks: [sink],
    });
    const run = runtime.startRun({ identity: { tenant: 't', principal: 'p' } });
    const saved = await run.call({ tool: 'save', args: { text: 'kept' } });
    const ref = (saved as { value: { ref: string } }).value.ref;
    const result = await run.call({
      tool: 'summarize',
      args: { note: 'art_doesnotexist0000000', other: 'not a ref' },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('artifact-refused');
    expect(result.error.message).toContain(ref);
    expect(result.error.details?.problems).toHaveLength(2);
    expect(events.filter((event) => event.type === 'artifact.refused')).toHaveLength(2);
  });
});

describe('output budget and spill', () => {
  const big = defineTool({
    name: 'big',
    description: 'Returns a big text.',
    inputSchema: z.object({ size: z.number() }),
    execute: ({ size }) => 'é🙂x'.repeat(size),
  });

  it('saves the whole result before cutting the transcript copy, byte for byte', async () => {
    const store = createMemoryArtifactStore();
    const { events, sink } = record();
    const runtime = createRuntime({
      tools: [big],
      artifacts: store,
      outputBudgetBytes: 1_000,
      sinks: [sink],
    });
    const run = runtime.startRun({ identity: { tenant: 't', principal: 'p' } });
    const result = await run.call({ tool: 'big', args: { size: 2_000 } });
    if (!result.ok) throw new Error('expected a result');
    expect(new TextEncoder().encode(result.content).length).toBeLessThanOrEqual(1_000);
    expect(result.spilled?.ref).toMatch(/^art_/);
    expect(result.content).toContain(result.spilled!.ref!);
    const saved = await store.get({ tenant: 't', principal: 'p', conversation: '' }, result.spilled!.ref!);
    expect(saved?.meta.kind).toBe('tool-result/big');
    expect(new TextEncoder().encode(saved!.data as string)).toEqual(
      new TextEncoder().encode(result.value as string),
    );
    const types = events.map((event) => event.type);
    expect(types.indexOf('artifact.put')).toBeLessThan(types.indexOf('output.spilled'));
    expect(types.indexOf('output.spilled')).toBeLessThan(types.indexOf('tool.finished'));
  });

  it('splits one budget equally among the calls of a batch', async () => {
    const runtime = createRuntime({ tools: [big], outputBudgetBytes: 3_000 });
    const results = await runtime
      .startRun()
      .callBatch([1, 2, 3].map(() => ({ tool: 'big', args: { size: 500 } })));
    for (const result of results) {
      expect(result.ok && new TextEncoder().encode(result.content).length).toBeLessThanOrEqual(1_000);
      expect(result.ok && result.content).toMatch(/bytes were lost/);
    }
  });

  it('leaves a result that fits alone', async () => {
    const result = await createRuntime({ tools: [big] })
      .startRun()
      .call({ tool: 'big', args: { size: 3 } });
    expect(result).toEqual({ ok: true, value: 'é🙂xé🙂xé🙂x', content: 'é🙂xé🙂xé🙂x' });
  });
});

describe('tool cache', () => {
  let runs = 0;
  const lookup = defineTool({
    name: 'lookup',
    description: 'An expensive lookup.',
    inputSchema: z.object({ q: z.string(), opts: z.object({ a: z.number(), b: z.number() }) }),
    cache: { ttlMs: 60_000 },
    execute: ({ q }, ctx) => `${q} for ${ctx.identity?.tenant} #${++runs}`,
  });

  it('caches successful results per tool, canonical arguments and tenant, with tool.cached', async () => {
    const { events, sink } = record();
    const runtime = createRuntime({ tools: [lookup], cache: createMemoryCache(), sinks: [sink] });
    const acme = runtime.startRun({ identity: { tenant: 'acme', principal: 'p' } });
    const first = await acme.call({ tool: 'lookup', args: { q: 'x', opts: { a: 1, b: 2 } } });
    const again = await acme.call({ tool: 'lookup', args: { q: 'x', opts: { b: 2, a: 1 } } });
    expect(again).toEqual(first);
    expect(events.filter((event) => event.type === 'tool.cached')).toHaveLength(1);
    const other = await runtime.startRun({ identity: { tenant: 'globex', principal: 'p' } }).call({
      tool: 'lookup',
      args: { q: 'x', opts: { a: 1, b: 2 } },
    });
    expect(other.ok && other.value).toMatch(/for globex/);
  });

  it('treats a failing cache as a miss, and the call settles as usual', async () => {
    const broken: CachePort = {
      get: async () => {
        throw new Error('down');
      },
      set: async () => {
        throw new Error('down');
      },
      delete: async () => {},
    };
    const runtime = createRuntime({ tools: [lookup], cache: broken });
    const result = await runtime.startRun().call({ tool: 'lookup', args: { q: 'y', opts: { a: 1, b: 1 } } });
    expect(result).toMatchObject({ ok: true, value: expect.stringMatching(/^y for/) });
  });

  it('refuses a cached tool without a cache at construction', () => {
    expect(() => createRuntime({ tools: [lookup] })).toThrow(/declares cache.*createRuntime\(\{ cache \}\)/);
  });
});

describe('ledger and run budget', () => {
  const spend = defineTool({
    name: 'spend',
    description: 'Spends money.',
    inputSchema: z.object({ id: z.string(), usd: z.number() }),
    execute: async ({ id, usd }, ctx) => {
      await ctx.ledger!.record({ entryId: id, usd });
      return ctx.ledger!.totalUsd();
    },
  });

  it('warns at 80%, refuses further calls once spent, and records each entry once', async () => {
    const { events, sink } = record();
    const runtime = createRuntime({ tools: [spend], ledger: createMemoryLedger(), sinks: [sink] });
    const run = runtime.startRun({ maxUsd: 1 });
    expect(await run.call({ tool: 'spend', args: { id: 'a', usd: 0.5 } })).toMatchObject({ value: 0.5 });
    expect(await run.call({ tool: 'spend', args: { id: 'a', usd: 0.5 } })).toMatchObject({ value: 0.5 });
    expect(await run.call({ tool: 'spend', args: { id: 'b', usd: 0.35 } })).toMatchObject({ value: 0.85 });
    expect(events.filter((event) => event.type === 'budget.warning')).toHaveLength(1);
    await run.call({ tool: 'spend', args: { id: 'c', usd: 0.5 } });
    const refused = await run.call({ tool: 'spend', args: { id: 'd', usd: 0.01 } });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'budget-exceeded' } });
    expect(events.some((event) => event.type === 'budget.exceeded')).toBe(true);
    const conflict = await run.call({ tool: 'spend', args: { id: 'a', usd: 0.7 } });
    expect(conflict.ok).toBe(false);
  });
});
