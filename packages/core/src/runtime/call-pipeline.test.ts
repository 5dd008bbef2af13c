import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

function recorded() {
  const events: ToolEvent[] = [];
  return { events, sink: (event: ToolEvent) => void events.push(event) };
}

/** An input validator that answers with a promise, counting how often it was asked. */
function asyncNumber(): StandardSchemaV1<{ n: number }> & { asked: number } {
  const schema = {
    asked: 0,
    '~standard': {
      version: 1 as const,
      vendor: 'test',
      validate: async (value: unknown) => {
        schema.asked++;
        const n = (value as { n?: unknown } | null)?.n;
        return typeof n === 'number' ? { value: { n } } : { issues: [{ message: 'n must be a number' }] };
      },
    },
  };
  return schema;
}

describe('the fast path and its hand-off to the pipeline', () => {
  it('ends a trivial call before run.call returns: its tool.finished is already recorded', async () => {
    const { events, sink } = recorded();
    const add = defineTool({
      name: 'add',
      description: 'Adds.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const run = createRuntime({ tools: [add], sinks: [sink] }).startRun();
    const result = run.call({ tool: 'add', args: { a: 1, b: 2 } });
    expect(events.map((event) => event.type)).toEqual(['run.started', 'tool.started', 'tool.finished']);
    expect(await result).toMatchObject({ ok: true, value: 3, content: '3' });
  });

  it('hands a call whose validation answers with a promise to the pipeline, which does not validate again', async () => {
    const input = asyncNumber();
    let ran = 0;
    const double = defineTool({
      name: 'double',
      description: 'Doubles.',
      inputSchema: input,
      inputJsonSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      execute: ({ n }) => {
        ran++;
        return n * 2;
      },
    });
    const run = createRuntime({ tools: [double] }).startRun();
    expect(await run.call({ tool: 'double', args: { n: 4 } })).toMatchObject({ ok: true, value: 8 });
    expect(await run.call({ tool: 'double', args: { n: 'x' } })).toMatchObject({
      ok: false,
      error: { kind: 'args-invalid' },
    });
    expect({ asked: input.asked, ran }).toEqual({ asked: 2, ran: 1 });
  });

  it('hands a synchronous tool that registered a call cleanup to the pipeline, which fires it after the result', async () => {
    const { events, sink } = recorded();
    const order: string[] = [];
    const opens = defineTool({
      name: 'opens',
      description: 'Opens something for the call.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.onTeardown(() => void order.push('cleanup'), { scope: 'call' });
        order.push('execute');
        return 'open';
      },
    });
    const run = createRuntime({ tools: [opens], sinks: [sink] }).startRun();
    expect(await run.call({ tool: 'opens', args: {} })).toMatchObject({ ok: true, value: 'open' });
    expect(order).toEqual(['execute', 'cleanup']);
    expect(events.map((event) => event.type).slice(-2)).toEqual(['tool.finished', 'teardown.fired']);
  });

  it('hands a synchronous result over its budget to the pipeline, which spills it without running the tool again', async () => {
    let ran = 0;
    const long = defineTool({
      name: 'long',
      description: 'Says a lot.',
      inputSchema: z.object({}),
      execute: () => {
        ran++;
        return 'word '.repeat(2_000);
      },
    });
    const run = createRuntime({
      tools: [long],
      artifacts: createMemoryArtifactStore(),
      outputBudgetBytes: 1_000,
    }).startRun({ identity: { tenant: 'acme', principal: 'ana' } });
    const result = await run.call({ tool: 'long', args: {} });
    expect(result).toMatchObject({ ok: true, spilled: { ref: expect.any(String) } });
    expect(ran).toBe(1);
  });
});
