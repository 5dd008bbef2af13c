import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import { createMemoryCache } from '../cache/memory-cache.js';
import type { ToolResult } from '../context/types.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import { ToolctxError } from '../errors.js';
import { createMemoryLedger } from '../ledger/memory-ledger.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { type CatalogueEventType, eventCatalogue, type ToolEvent } from './catalogue.js';

// The catalogue promises readers (status lines, logs, SSE clients) a type for each moment. A type
// nothing emits is a promise nobody keeps, so every one must come out of a real run here.

let flakyAttempts = 0;
const tools = [
  defineTool({
    name: 'echo',
    description: 'Says it back, reporting progress once well and once with a function in it, and logging.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }, ctx) => {
      ctx.progress({ message: 'echoing' });
      ctx.log('info', 'echoing', { text });
      ctx.progress({ callback: () => 1 } as never);
      return text;
    },
  }),
  defineTool({
    name: 'flaky',
    description: 'Fails once, retryably.',
    inputSchema: z.object({}),
    retry: { attempts: 2, backoffMs: 1 },
    execute: () => {
      if (++flakyAttempts < 2) throw new ToolctxError('tool-error', 'busy', { retryable: true });
      return 'ok';
    },
  }),
  defineTool({
    name: 'lookup',
    description: 'A cached lookup.',
    inputSchema: z.object({ q: z.string() }),
    cache: { ttlMs: 60_000 },
    execute: ({ q }) => `found ${q}`,
  }),
  defineTool({
    name: 'pay',
    description: 'Pays, once a person approves.',
    inputSchema: z.object({ amount: z.number() }),
    effect: 'write',
    needsApproval: true,
    execute: ({ amount }) => ({ paid: amount }),
  }),
  defineTool({
    name: 'search',
    description: 'Uses an API key.',
    inputSchema: z.object({}),
    needs: { credential: 'search-api' },
    execute: () => 'results',
  }),
  defineTool({
    name: 'mail',
    description: 'Needs a key nobody holds.',
    inputSchema: z.object({}),
    needs: { credential: 'mail-api' },
    execute: () => 'sent',
  }),
  defineTool({
    name: 'note',
    description:
      'Saves a note, saves a scratch copy and deletes it, with a cleanup that fails at the call end and one for the run end.',
    inputSchema: z.object({ text: z.string() }),
    effect: 'write',
    execute: async ({ text }, ctx) => {
      ctx.onTeardown(() => {}, { scope: 'run' });
      ctx.onTeardown(
        () => {
          throw new Error('cleanup failed');
        },
        { scope: 'call' },
      );
      const scratch = await ctx.artifacts.put({ kind: 'note', data: text });
      await ctx.artifacts.delete(scratch.ref);
      return ctx.artifacts.put({ kind: 'note', data: text });
    },
  }),
  defineTool({
    name: 'summarize',
    description: 'Reads a note artifact.',
    inputSchema: z.object({ note: z.string() }),
    wants: { note: 'note' },
    execute: ({ note }) => note.length,
  }),
  defineTool({
    name: 'big',
    description: 'Returns more than the transcript takes.',
    inputSchema: z.object({}),
    execute: () => 'x'.repeat(4_000),
  }),
  defineTool({
    name: 'spend',
    description: 'Spends money.',
    inputSchema: z.object({ id: z.string(), usd: z.number() }),
    execute: ({ id, usd }, ctx) => ctx.ledger!.record({ entryId: id, usd }),
  }),
  defineTool({
    name: 'confirm',
    description: 'Asks its user to confirm.',
    inputSchema: z.object({}),
    execute: (_args, ctx) =>
      ctx.ask({ message: 'Sure?', schema: { type: 'object', properties: { sure: { type: 'boolean' } } } }),
  }),
];

function refOf(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected a result, got ${result.error.message}`);
  return (result.value as { ref: string }).ref;
}

async function runEveryScenario(): Promise<Set<string>> {
  const seen = new Set<string>();
  const runtime = createRuntime({
    tools,
    artifacts: createMemoryArtifactStore(),
    cache: createMemoryCache(),
    approval: createMemoryApprovalPort(),
    credentials: staticCredentials({ 'search-api': 'key-1' }),
    ledger: createMemoryLedger(),
    outputBudgetBytes: 1_000,
    sinks: [(event: ToolEvent) => void seen.add(event.type)],
  });
  const run = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' }, maxUsd: 1 });
  await run.call({ tool: 'echo', args: { text: 'hi' } });
  await run.call({ tool: 'echo', args: { text: 42 } });
  await run.call({ tool: 'flaky', args: {} });
  await run.call({ tool: 'lookup', args: { q: 'a' } });
  await run.call({ tool: 'lookup', args: { q: 'a' } });
  const pending = await run.call({ tool: 'pay', args: { amount: 5 } });
  if (pending.ok) throw new Error('expected the payment to wait for approval');
  await run.resume(String(pending.error.details?.approvalId), { approved: true });
  await run.call({ tool: 'search', args: {} });
  await run.call({ tool: 'mail', args: {} });
  const ref = refOf(await run.call({ tool: 'note', args: { text: 'kept' } }));
  await run.call({ tool: 'summarize', args: { note: ref } });
  await run.call({ tool: 'summarize', args: { note: 'not a ref' } });
  await run.call({ tool: 'big', args: {} });
  const confirming = run.call({ tool: 'confirm', args: {} });
  while (run.asks().length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  await run.answer(run.asks()[0]!.askId, { action: 'decline' });
  await confirming;
  await run.call({ tool: 'spend', args: { id: 'a', usd: 0.9 } });
  await run.call({ tool: 'spend', args: { id: 'b', usd: 0.2 } });
  await run.call({ tool: 'spend', args: { id: 'c', usd: 0.1 } });
  await run.end();
  const planning = runtime.startRun({ phase: 'plan' });
  await planning.call({ tool: 'note', args: { text: 'no' } });
  await planning.end();
  return seen;
}

describe('the event catalogue', () => {
  it('has every type emitted by some real scenario, so none is declared that nothing produces', async () => {
    const seen = await runEveryScenario();
    const types = Object.keys(eventCatalogue) as CatalogueEventType[];
    expect(
      types.filter((type) => !seen.has(type)),
      'catalogue types no scenario emitted',
    ).toEqual([]);
    expect([...seen].filter((type) => !(type in eventCatalogue))).toEqual([]);
  });
});
