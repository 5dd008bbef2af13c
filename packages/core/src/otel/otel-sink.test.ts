import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import type { ToolResult } from '../context/types.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import { ToolctxError } from '../errors.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { createOtelSink } from './otel-sink.js';

const secret = 'sk-SECRET-123';
const secretLooking = 'sk-live-LOOKS-LIKE-A-KEY-9f8e7d';

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((span) => span.name === name);
  return { tracer, spans, named };
}

const search = defineTool({
  name: 'search',
  description: 'Searches the docs.',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }, ctx) => {
    ctx.progress({ message: 'page 1 of 2', done: 1, total: 2 });
    ctx.log('info', 'searched', { hits: 2 });
    return `results for ${query}`;
  },
});

const broken = defineTool({
  name: 'broken',
  description: 'Always fails.',
  inputSchema: z.object({}),
  effect: 'write',
  execute: () => {
    throw new ToolctxError('not-found', 'No such page.');
  },
});

const outer = defineTool({
  name: 'outer',
  description: 'Calls search.',
  inputSchema: z.object({}),
  execute: async (_args, ctx) => {
    const inner = await ctx.tools!.call({ tool: 'search', args: { query: 'nested' } });
    return inner.ok ? 'fine' : 'inner failed';
  },
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('createOtelSink', () => {
  it('makes one execute_tool span per call with the GenAI attributes and toolctx ones', async () => {
    const { tracer, spans } = tracing();
    const run = createRuntime({ tools: [search], sinks: [createOtelSink({ tracer })] }).startRun();
    const result = await run.call({ tool: 'search', args: { query: 'otel' }, toolCallId: 'tc_1' });
    expect(result.ok).toBe(true);
    expect(spans()).toHaveLength(1);
    const [span] = spans();
    expect(span!.name).toBe('execute_tool search');
    expect(span!.kind).toBe(SpanKind.INTERNAL);
    expect(span!.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.call.id': 'tc_1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Searches the docs.',
      'toolctx.tool.effect': 'read',
      'toolctx.door': 'in-process',
      'toolctx.run.id': run.runId,
      'toolctx.outcome': 'ok',
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(parentOf(span!)).toBeUndefined();
  });

  it('marks a failed call with status ERROR, its message, and error.type set to the ErrorInfo kind', async () => {
    const { tracer, named } = tracing();
    const run = createRuntime({ tools: [broken], sinks: [createOtelSink({ tracer })] }).startRun();
    await run.call({ tool: 'broken', args: {} });
    await run.call({ tool: 'missing', args: {} });
    const [failed] = named('execute_tool broken');
    expect(failed!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'No such page.' });
    expect(failed!.attributes).toMatchObject({
      'error.type': 'not-found',
      'toolctx.outcome': 'error',
      'toolctx.tool.effect': 'write',
      'toolctx.error.retryable': false,
    });
    // A call that could not start (an unknown tool) still gets its span.
    const [unknown] = named('execute_tool missing');
    expect(unknown!.attributes['error.type']).toBe('unknown-tool');
    expect(unknown!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('files progress and log entries as span events, in order, within the span', async () => {
    const { tracer, spans } = tracing();
    const run = createRuntime({ tools: [search], sinks: [createOtelSink({ tracer })] }).startRun();
    await run.call({ tool: 'search', args: { query: 'otel' } });
    const events = spans()[0]!.events;
    expect(events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'tool.progress',
        {
          'toolctx.progress.n': 1,
          'toolctx.progress.message': 'page 1 of 2',
          'toolctx.progress.done': 1,
          'toolctx.progress.total': 2,
        },
      ],
      ['tool.log', { 'toolctx.log.level': 'info', 'toolctx.log.message': 'searched' }],
    ]);
    const { startTime, endTime } = spans()[0]!;
    const ns = ([s, n]: readonly [number, number]) => s * 1e9 + n;
    expect(ns(events[0]!.time)).toBeGreaterThanOrEqual(ns(startTime));
    expect(ns(events[1]!.time)).toBeLessThanOrEqual(ns(endTime));
  });

  it("makes a call through ctx.tools.call a child of its parent call's span", async () => {
    const { tracer, named } = tracing();
    const run = createRuntime({ tools: [outer, search], sinks: [createOtelSink({ tracer })] }).startRun();
    await run.call({ tool: 'outer', args: {} });
    const [parent] = named('execute_tool outer');
    const [child] = named('execute_tool search');
    expect(parentOf(child!)).toBe(parent!.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
    expect(child!.attributes['toolctx.call.parent_id']).toBe(parent!.attributes['gen_ai.tool.call.id']);
  });

  it("parents a run's calls under the context given as parent, also for a sink given as a run's onEvent", async () => {
    const { tracer, named } = tracing();
    const request = tracer.startSpan('request');
    const parent = trace.setSpan(ROOT_CONTEXT, request);
    const runtime = createRuntime({ tools: [search], sinks: [createOtelSink({ tracer, parent })] });
    await runtime.startRun().call({ tool: 'search', args: { query: 'a' } });
    const perRun = createOtelSink({ tracer, parent: () => parent });
    const plain = createRuntime({ tools: [search] });
    await plain.startRun({ onEvent: perRun }).call({ tool: 'search', args: { query: 'b' } });
    request.end();
    const calls = named('execute_tool search');
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(parentOf(call)).toBe(request.spanContext().spanId);
      expect(call.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(call.attributes['toolctx.door']).toBe('in-process');
    }
  });

  it('names the door a runtime serves through, per door, with one sink shared by withDoor', async () => {
    const { tracer, named } = tracing();
    const runtime = createRuntime({ tools: [search], sinks: [createOtelSink({ tracer })] });
    const elsewhere = runtime.withDoor({ ...runtime.door, name: 'elsewhere' });
    await runtime.startRun().call({ tool: 'search', args: { query: 'a' } });
    await elsewhere.startRun().call({ tool: 'search', args: { query: 'b' } });
    await elsewhere.callOnce({ tool: 'search', args: { query: 'c' } });
    expect(named('execute_tool search').map((span) => span.attributes['toolctx.door'])).toEqual([
      'in-process',
      'elsewhere',
      'elsewhere',
    ]);
  });

  it('ends a call that waits for approval as pending, and makes its resumption a second span', async () => {
    const { tracer, named } = tracing();
    const pay = defineTool({
      name: 'pay',
      description: 'Pays, after approval.',
      inputSchema: z.object({ amount: z.number() }),
      effect: 'write',
      needsApproval: true,
      execute: ({ amount }) => ({ paid: amount }),
    });
    const runtime = createRuntime({
      tools: [pay],
      approval: createMemoryApprovalPort(),
      sinks: [createOtelSink({ tracer })],
    });
    const run = runtime.startRun();
    const pending: ToolResult = await run.call({ tool: 'pay', args: { amount: 5 }, toolCallId: 'tc_pay' });
    expect(pending.ok).toBe(false);
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    expect((await run.resume(approvalId, { approved: true })).ok).toBe(true);
    const [waited, resumed] = named('execute_tool pay');
    expect(waited!.attributes).toMatchObject({
      'toolctx.outcome': 'pending',
      'toolctx.pending.reason': 'approval',
    });
    expect(waited!.status.code).toBe(SpanStatusCode.UNSET);
    expect(waited!.events.map((event) => event.name)).toEqual(['approval.requested']);
    expect(resumed!.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'tc_pay', 'toolctx.outcome': 'ok' });
    expect(resumed!.events.map((event) => [event.name, event.attributes])).toEqual([
      ['approval.decided', { 'toolctx.approval.id': approvalId, 'toolctx.approval.approved': true }],
    ]);
  });

  it('puts no credential value, log data, argument, result or progress payload into any span', async () => {
    const { tracer, spans } = tracing();
    const leaky = defineTool({
      name: 'leaky',
      description: 'Handles a key carelessly.',
      inputSchema: z.object({ token: z.string() }),
      needs: { credential: 'api' },
      execute: async ({ token }, ctx) => {
        const key = ctx.credential!.value;
        ctx.log('warning', `calling with ${key}`, { apiKey: secretLooking, key });
        ctx.progress({ message: 'step 1', headers: { authorization: `Bearer ${key}` }, token });
        ctx.emit('called', { key, token });
        return { echoed: token, key };
      },
    });
    const run = createRuntime({
      tools: [leaky],
      credentials: staticCredentials({ api: secret }),
      sinks: [createOtelSink({ tracer })],
    }).startRun();
    const result = await run.call({ tool: 'leaky', args: { token: secretLooking } });
    expect(result.ok).toBe(true);
    const [span] = spans();
    // The steps are there, so the check below looks at something.
    expect(span!.events.map((event) => event.name)).toEqual([
      'credential.requested',
      'credential.acquired',
      'tool.log',
      'tool.progress',
      'custom.called',
    ]);
    expect(span!.events[2]!.attributes).toEqual({
      'toolctx.log.level': 'warning',
      'toolctx.log.message': 'calling with [redacted]',
    });
    const recorded = JSON.stringify(
      spans().map((each) => [each.name, each.attributes, each.events, each.status, each.links]),
    );
    expect(recorded).not.toContain(secret);
    expect(recorded).not.toContain(secretLooking);
  });
});
