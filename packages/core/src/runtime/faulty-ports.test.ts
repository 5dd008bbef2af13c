// Fault injection in the call path: a sink, a cache or a ledger that throws must never change how
// a call settles. Each case runs the same calls twice, with healthy ports and with broken ones,
// and compares the results.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CachePort } from '../cache/cache-port.js';
import { createMemoryCache } from '../cache/memory-cache.js';
import type { ToolEvent } from '../events/catalogue.js';
import type { Ledger } from '../ledger/ledger.js';
import { createMemoryLedger } from '../ledger/memory-ledger.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime, type RuntimeOptions } from './create-runtime.js';

const tools = [
  defineTool({
    name: 'ok',
    description: 'Succeeds with progress.',
    inputSchema: z.object({ n: z.number() }),
    cache: { ttlMs: 60_000 },
    execute: ({ n }, ctx) => {
      ctx.progress({ message: `n is ${n}` });
      return { doubled: n * 2 };
    },
  }),
  defineTool({
    name: 'fails',
    description: 'Throws.',
    inputSchema: z.object({}),
    execute: () => {
      throw new RangeError('nope');
    },
  }),
  defineTool({
    name: 'deaf',
    description: 'Never settles and ignores its signal.',
    inputSchema: z.object({}),
    timeoutMs: 20,
    execute: () => new Promise(() => {}),
  }),
];

const calls = [
  { tool: 'ok', args: { n: 2 } },
  { tool: 'ok', args: { n: 2 } }, // a cache hit where the cache works
  { tool: 'fails', args: {} },
  { tool: 'deaf', args: {} },
  { tool: 'ok', args: { n: 'x' } },
  { tool: 'missing', args: {} },
];

async function settle(options: Partial<RuntimeOptions>, onEvent?: (event: ToolEvent) => void) {
  const run = createRuntime({ tools, ...options }).startRun({ maxUsd: 5, onEvent });
  const results = [];
  for (const call of calls) results.push(await run.call(call));
  await run.end();
  return results;
}

const boom = () => {
  throw new Error('port down');
};
const brokenCache: CachePort = {
  get: async () => boom(),
  set: async () => boom(),
  delete: async () => boom(),
};
const brokenLedger: Ledger = { record: async () => boom(), totalUsd: async () => boom() };

describe('fault injection: broken ports never change how a call settles', () => {
  it('a sink, an onEvent and a subscriber that throw on every event', async () => {
    const healthy = await settle({ cache: createMemoryCache(), ledger: createMemoryLedger() });
    const reported: string[] = [];
    const seen: ToolEvent[] = [];
    const runtime = createRuntime({
      tools,
      cache: createMemoryCache(),
      ledger: createMemoryLedger(),
      sinks: [boom, (event) => void seen.push(event)],
      onSinkError: (_error, event) => void reported.push(event.type),
    });
    const run = runtime.startRun({ maxUsd: 5, onEvent: boom });
    run.events.subscribe(boom);
    const results = [];
    for (const call of calls) results.push(await run.call(call));
    await run.end();
    expect(results).toEqual(healthy);
    // Each broken listener was reported once and detached; the healthy sink saw every event.
    expect(reported).toEqual(['run.started', 'run.started', 'tool.started']);
    expect(seen.map((event) => event.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.at(-1)?.type).toBe('run.finished');
  });

  it('a cache whose every method throws: the same results, computed instead of cached', async () => {
    const healthy = await settle({ cache: createMemoryCache() });
    expect(await settle({ cache: brokenCache })).toEqual(healthy);
  });

  it('a ledger whose every method throws: calls are admitted and settle the same', async () => {
    // Why admitted: the budget check reads a broken ledger as nothing spent (see SECURITY.md).
    const healthy = await settle({ cache: createMemoryCache(), ledger: createMemoryLedger() });
    expect(await settle({ cache: createMemoryCache(), ledger: brokenLedger })).toEqual(healthy);
  });

  it('all three broken at once, and the events of the healthy sink keep their order per call', async () => {
    const healthy = await settle({ cache: createMemoryCache(), ledger: createMemoryLedger() });
    const seen: ToolEvent[] = [];
    const results = await settle(
      {
        cache: brokenCache,
        ledger: brokenLedger,
        sinks: [boom, (event) => void seen.push(event)],
        onSinkError: () => {},
      },
      boom,
    );
    expect(results).toEqual(healthy);
    const byCall = new Map<string, string[]>();
    for (const event of seen) {
      if (event.callId) byCall.set(event.callId, [...(byCall.get(event.callId) ?? []), event.type]);
    }
    // One terminal event per call, last; a call refused before it started has only that one.
    expect(byCall.size).toBe(calls.length);
    for (const types of byCall.values()) {
      expect(types.filter((type) => type === 'tool.finished' || type === 'tool.failed')).toHaveLength(1);
      expect(['tool.finished', 'tool.failed']).toContain(types.at(-1));
      expect(types.indexOf('tool.started')).toBeLessThanOrEqual(0);
    }
  });
});
