// Tool calls as OpenTelemetry spans: each call an `execute_tool {tool}` span under the caller's
// active span. The first lines are your host's OpenTelemetry set-up (NodeSDK or your vendor's
// distribution does the same); the sink needs only `@opentelemetry/api`.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createRuntime } from '@toolctx/core';
import { createOtelSink } from '@toolctx/core/otel';
import { tools } from './tools.js';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spanProcessors = [new SimpleSpanProcessor(new ConsoleSpanExporter())];
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors }));

const runtime = createRuntime({ tools, sinks: [createOtelSink()] });

const tracer = trace.getTracer('my-app');
await tracer.startActiveSpan('POST /chat', async (request) => {
  const run = runtime.startRun();
  // The span of this call is a child of `POST /chat`.
  await run.call({ tool: 'count_words', args: { text: 'to be or not to be' } });
  await run.end();
  request.end();
});
