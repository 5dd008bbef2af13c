// The sink's documented default tracer, `trace.getTracer('@toolctx/core')` from the globally
// registered provider: with no `tracer` given, its spans carry that instrumentation scope name.
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { createOtelSink } from './otel-sink.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
beforeEach(() => {
  exporter.reset();
});
afterAll(() => {
  trace.disable();
});

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('createOtelSink without a tracer', () => {
  it("makes spans with the global provider's tracer named '@toolctx/core'", async () => {
    const run = createRuntime({ tools: [echo], sinks: [createOtelSink()] }).startRun();
    expect(await run.call({ tool: 'echo', args: { text: 'hi' } })).toMatchObject({ ok: true });
    await run.end();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool echo']);
    expect(spans[0]!.instrumentationScope.name).toBe('@toolctx/core');
  });

  it('uses the tracer it is given instead, so the scope name above is the default', async () => {
    const tracer = provider.getTracer('host-tracer');
    const run = createRuntime({ tools: [echo], sinks: [createOtelSink({ tracer })] }).startRun();
    await run.call({ tool: 'echo', args: { text: 'hi' } });
    await run.end();
    expect(exporter.getFinishedSpans().map((span) => span.instrumentationScope.name)).toEqual([
      'host-tracer',
    ]);
  });
});
