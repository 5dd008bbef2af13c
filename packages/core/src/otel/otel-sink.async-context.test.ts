// The sink under the caller's active span, with the context manager a host registers: here
// AsyncLocalStorage's (Node; workerd with nodejs_compat), so the active span follows awaits. Runs
// in core's Node project and in the `otel-in-workerd` project (test/vitest.config.ts), not where
// there is no AsyncLocalStorage (workerd without nodejs_compat, Chromium).
import { context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveMcpHttp } from '../mcp/serve-mcp-http.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { mcp2026Request } from '../testing/mcp-requests.js';
import { defineTool } from '../tools/define-tool.js';
import { createOtelSink } from './otel-sink.js';
import { otelTraceContext } from './trace-context.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');

/** workerd's AsyncLocalStorage has no `disable()`; dropping the manager is all the clean-up needed. */
class ContextManager extends AsyncLocalStorageContextManager {
  override disable(): this {
    try {
      return super.disable();
    } catch {
      return this;
    }
  }
}

beforeAll(() => {
  context.setGlobalContextManager(new ContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  context.disable();
  trace.disable();
});

const wait = defineTool({
  name: 'wait',
  description: 'Waits a few milliseconds.',
  inputSchema: z.object({ ms: z.number() }),
  execute: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
});

const callsNamed = (name: string) =>
  exporter.getFinishedSpans().filter((span) => span.attributes['gen_ai.tool.call.id'] === name);
const parentIs = (span: ReadableSpan | undefined, parent: Span) => {
  expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  expect(span?.spanContext().traceId).toBe(parent.spanContext().traceId);
};

describe('createOtelSink with an async context manager', () => {
  it('parents a call under the span active where run.call is made, after awaits', async () => {
    // No tracer given: the sink uses the globally registered provider.
    const run = createRuntime({ tools: [wait], sinks: [createOtelSink()] }).startRun();
    const request = await tracer.startActiveSpan('request', async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await run.call({ tool: 'wait', args: { ms: 1 }, toolCallId: 'after-awaits' });
      span.end();
      return span;
    });
    parentIs(callsNamed('after-awaits')[0], request);
  });

  it("keeps concurrent requests apart: each call under its own request's span", async () => {
    const run = createRuntime({ tools: [wait], sinks: [createOtelSink({ tracer })] }).startRun();
    const serve = (id: string, ms: number) =>
      tracer.startActiveSpan(`request ${id}`, async (span) => {
        await run.call({ tool: 'wait', args: { ms }, toolCallId: `${id}-1` });
        await run.call({ tool: 'wait', args: { ms: 1 }, toolCallId: `${id}-2` });
        span.end();
        return span;
      });
    const [a, b] = await Promise.all([serve('a', 15), serve('b', 1)]);
    for (const id of ['a-1', 'a-2']) parentIs(callsNamed(id)[0], a);
    for (const id of ['b-1', 'b-2']) parentIs(callsNamed(id)[0], b);
  });

  it('falls back to the span active as the run started when no span is active at the call', async () => {
    const runtime = createRuntime({ tools: [wait], sinks: [createOtelSink({ tracer })] });
    const session = tracer.startSpan('session');
    const run = context.with(trace.setSpan(context.active(), session), () => runtime.startRun());
    await run.call({ tool: 'wait', args: { ms: 1 }, toolCallId: 'outside' });
    session.end();
    parentIs(callsNamed('outside')[0], session);
  });

  it("parents an MCP call under the client's span named by the traceparent in its request's _meta", async () => {
    const runtime = createRuntime({ tools: [wait], sinks: [createOtelSink({ tracer })] });
    const mcp = serveMcpHttp(runtime, { traceContext: otelTraceContext });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const call = async (spanId: string) => {
      const meta = {
        'io.modelcontextprotocol/clientCapabilities': {},
        traceparent: `00-${traceId}-${spanId}-01`,
        tracestate: 'vendor=1',
      };
      const response = await mcp.fetch(
        mcp2026Request('tools/call', { name: 'wait', arguments: { ms: 1 } }, { meta }),
      );
      expect(response.status).toBe(200);
      await response.text();
    };
    const before = exporter.getFinishedSpans().length;
    await call('00f067aa0ba902b7');
    const [span] = exporter.getFinishedSpans().slice(before);
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext).toMatchObject({ spanId: '00f067aa0ba902b7', isRemote: true });
    expect(span?.spanContext().traceState?.get('vendor')).toBe('1');
    // A malformed traceparent is ignored: the call starts its own trace.
    await call('not-a-span-id');
    const [own] = exporter.getFinishedSpans().slice(before + 1);
    expect(own?.spanContext().traceId).not.toBe(traceId);
    expect(own?.parentSpanContext).toBeUndefined();
    await mcp.close();
  });
});
