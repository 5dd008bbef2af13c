import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ArtifactStore } from '../artifacts/types.js';
import { createMemoryCache } from '../cache/memory-cache.js';
import type { ToolExecutionContext } from '../context/types.js';
import { ToolctxError } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createMemoryLedger } from '../ledger/memory-ledger.js';
import { serveMcp } from '../mcp/serve-mcp.js';
import { defineTool } from '../tools/define-tool.js';
import { createMemoryWorkspace } from '../workspace/memory-workspace.js';
import { createRuntime } from './create-runtime.js';
import { artifactScope } from './run-facts.js';

const identity = { tenant: 'acme', principal: 'ana' };
const scope = artifactScope(identity);

/** Rejects with the refusal, or fails the test. */
async function refusal(action: () => unknown): Promise<ToolctxError> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolctxError);
    return error as ToolctxError;
  }
  throw new Error('the port did not refuse');
}

/** A memory store whose puts wait until `release` is called. */
function slowStore(): { store: ArtifactStore; release: () => void; started: Promise<void> } {
  const inner = createMemoryArtifactStore();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let began!: () => void;
  const started = new Promise<void>((resolve) => {
    began = resolve;
  });
  const store: ArtifactStore = {
    ...inner,
    put: async (at, input) => {
      began();
      await gate;
      return inner.put(at, input);
    },
  };
  return { store, release, started };
}

describe('a call that has settled cannot act', () => {
  it('refuses every side-effecting port once the tool has returned; reads still work', async () => {
    let kept: ToolExecutionContext | undefined;
    const leaf = defineTool({
      name: 'leaf',
      description: 'Leaf.',
      inputSchema: z.object({}),
      execute: () => 1,
    });
    const quick = defineTool({
      name: 'quick',
      description: 'Keeps its ctx for later.',
      inputSchema: z.object({}),
      effect: 'send',
      execute: (_args, ctx) => {
        kept = ctx;
        return 'done';
      },
    });
    const artifacts = createMemoryArtifactStore();
    const workspace = createMemoryWorkspace();
    const cache = createMemoryCache();
    const events: ToolEvent[] = [];
    const runtime = createRuntime({
      tools: [leaf, quick],
      artifacts,
      workspace,
      cache,
      ledger: createMemoryLedger(),
      sinks: [(event) => void events.push(event)],
    });
    const run = runtime.startRun({ identity });
    const before = await artifacts.put(scope, { kind: 'note', data: 'kept' });
    await workspace.write('a.txt', 'kept');
    await cache.set('k', new Uint8Array([1]), { ttlMs: 60_000 });
    expect(await run.call({ tool: 'quick', args: {} })).toMatchObject({ ok: true });
    const ctx = kept!;
    const eventsBefore = events.length;

    const writes: [string, () => unknown][] = [
      ['ctx.artifacts.put', () => ctx.artifacts.put({ kind: 'note', data: 'late' })],
      [
        'ctx.artifacts.putStream',
        () => ctx.artifacts.putStream!({ kind: 'note', data: new Blob(['late']).stream() }),
      ],
      ['ctx.artifacts.delete', () => ctx.artifacts.delete(before.ref)],
      ['ctx.workspace.write', () => ctx.workspace!.write('b.txt', 'late')],
      ['ctx.workspace.delete', () => ctx.workspace!.delete('a.txt')],
      ['ctx.cache.set', () => ctx.cache!.set('late', new Uint8Array([2]), { ttlMs: 60_000 })],
      ['ctx.cache.delete', () => ctx.cache!.delete('k')],
      ['ctx.ledger.record', () => ctx.ledger!.record({ entryId: 'e1', usd: 1 })],
      ['ctx.fetch', () => ctx.fetch('https://example.com/')],
      ['ctx.emit("step")', () => ctx.emit('step', { n: 1 })],
    ];
    for (const [verb, write] of writes) {
      const error = await refusal(write);
      expect(error.kind, verb).toBe('call-settled');
      expect(error.message).toBe(
        `"quick" has already ended (finished), so ${verb} was refused and nothing was written. A call cannot act once it has finished, failed, been cancelled or timed out: await every write before execute returns.`,
      );
      expect(error.info.details).toEqual({ tool: 'quick', port: verb, ended: 'finished' });
    }
    expect(await ctx.tools!.call({ tool: 'leaf', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'call-settled', details: { port: 'ctx.tools.call' } },
    });
    ctx.progress('late'); // dropped and counted, never thrown

    expect((await ctx.artifacts.list()).artifacts.map((meta) => meta.ref)).toEqual([before.ref]);
    expect(await ctx.artifacts.get(before.ref)).toMatchObject({ data: 'kept' });
    expect(await ctx.workspace!.readText('a.txt')).toBe('kept');
    expect(await ctx.workspace!.list()).toEqual(['a.txt']);
    expect(await ctx.cache!.get('k')).toEqual(new Uint8Array([1]));
    expect(await ctx.cache!.get('late')).toBeNull();
    expect(await ctx.ledger!.totalUsd()).toBe(0);
    expect(events.slice(eventsBefore).filter((event) => event.callId === ctx.toolCallId)).toEqual([]);
  });

  it('says how the call ended: cancelled, timed out or failed', async () => {
    const kept: Record<string, ToolExecutionContext> = {};
    const keep = (name: string, execute: (ctx: ToolExecutionContext) => unknown, timeoutMs?: number) =>
      defineTool({
        name,
        description: `Keeps its ctx (${name}).`,
        inputSchema: z.object({}),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        execute: (_args, ctx) => {
          kept[name] = ctx;
          return execute(ctx);
        },
      });
    const runtime = createRuntime({
      tools: [
        keep('hangs', () => new Promise(() => {})),
        keep('slow', () => new Promise(() => {}), 5),
        keep('throws', () => {
          throw new Error('boom');
        }),
      ],
      artifacts: createMemoryArtifactStore(),
    });
    const run = runtime.startRun();
    const caller = new AbortController();
    const hanging = run.call({ tool: 'hangs', args: {}, signal: caller.signal });
    caller.abort();
    await hanging;
    await run.call({ tool: 'slow', args: {} });
    await run.call({ tool: 'throws', args: {} });
    for (const [name, ended] of [
      ['hangs', 'cancelled'],
      ['slow', 'timed out'],
      ['throws', 'failed'],
    ] as const) {
      const error = await refusal(() => kept[name]!.artifacts.put({ kind: 'k', data: 'x' }));
      expect(error.message).toMatch(new RegExp(`^"${name}" has already ended \\(${ended}\\)`));
    }
  });

  it('takes back a put that was in flight when the call was cancelled: no artifact, no artifact.put', async () => {
    const { store, release, started } = slowStore();
    let putting: Promise<unknown> | undefined;
    const save = defineTool({
      name: 'save',
      description: 'Saves, slowly.',
      inputSchema: z.object({}),
      effect: 'write',
      execute: (_args, ctx) => {
        putting = ctx.artifacts.put({ kind: 'note', data: 'written too late' });
        return putting;
      },
    });
    const events: ToolEvent[] = [];
    const run = createRuntime({ tools: [save], artifacts: store }).startRun({
      identity,
      onEvent: (event) => void events.push(event),
    });
    const caller = new AbortController();
    const pending = run.call({ tool: 'save', args: {}, signal: caller.signal });
    await started;
    caller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    release();
    const error = await refusal(() => putting);
    expect(error.message).toMatch(
      /^"save" has already ended \(cancelled\), so ctx\.artifacts\.put was refused/,
    );
    expect((await store.list(scope)).artifacts).toEqual([]);
    const types = events.filter((event) => event.callId !== undefined).map((event) => event.type);
    expect(types).toEqual(['tool.started', 'tool.failed']);
  });

  it('takes back a cache set that was in flight when the call timed out', async () => {
    const inner = createMemoryCache();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let setting: Promise<unknown> | undefined;
    const tool = defineTool({
      name: 'memo',
      description: 'Caches, slowly.',
      inputSchema: z.object({}),
      timeoutMs: 5,
      execute: (_args, ctx) => {
        setting = ctx.cache!.set('late', new Uint8Array([1]), { ttlMs: 60_000 });
        return setting;
      },
    });
    const cache = {
      ...inner,
      set: async (...args: Parameters<typeof inner.set>) => gate.then(() => inner.set(...args)),
    };
    const run = createRuntime({ tools: [tool], cache }).startRun();
    expect(await run.call({ tool: 'memo', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
    release();
    expect((await refusal(() => setting)).kind).toBe('call-settled');
    expect(await inner.get('late')).toBeNull();
  });

  it('through the MCP door, a call cancelled by the client mid-put leaves no artifact, and its put is refused', async () => {
    const { store, release, started } = slowStore();
    let put: Promise<unknown> | undefined;
    const save = defineTool({
      name: 'save',
      description: 'Saves a note, slowly.',
      effect: 'write',
      inputSchema: z.object({}),
      // The tool gives up at once when cancelled, leaving its put in flight.
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          put = ctx.artifacts.put({ kind: 'note', data: 'written too late' });
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const saveNow = defineTool({
      name: 'save_now',
      description: 'Saves a note and waits for it.',
      effect: 'write',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => (await ctx.artifacts.put({ kind: 'note', data: 'in time' })).ref,
    });
    const runtime = createRuntime({ tools: [save, saveNow], artifacts: store });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await serveMcp(runtime, { identify: () => identity }).connect(serverSide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);

    const controller = new AbortController();
    const call = client.callTool({ name: 'save', arguments: {} }, undefined, { signal: controller.signal });
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    await started;
    controller.abort('the user pressed stop');
    expect(await settled).toBe('rejected');
    // The tool's call has settled as aborted on the server; only now does the store answer.
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(put).rejects.toMatchObject({ kind: 'call-settled' });
    expect((await store.list(scope)).artifacts).toEqual([]);
    // The same scope does hold a put that lands while its call runs.
    await client.callTool({ name: 'save_now', arguments: {} });
    expect((await store.list(scope)).artifacts.map((meta) => meta.label ?? meta.kind)).toEqual(['note']);
  });
});
