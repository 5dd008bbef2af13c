import { type Context, context, createTraceState, trace } from '@opentelemetry/api';

/** A W3C `traceparent`: version 00, a trace id, a parent span id, flags. */
const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Runs `call` as a child of the span a W3C `traceparent` names (with its `tracestate`), so a tool
 * call's span (from {@link createOtelSink}) joins the trace of the client that made it: give it to
 * an MCP server as `traceContext` (`serveMcp`, `serveMcpHttp`, `mountMcp`'s `serveOptions`), which
 * hands it what the request's `_meta` carries. Needs a context manager registered (the
 * OpenTelemetry Node SDK registers AsyncLocalStorage's); a malformed or all-zero `traceparent` is
 * ignored.
 *
 * @experimental May still change with the OpenTelemetry GenAI conventions.
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { serveMcpHttp } from '@toolctx/core/mcp';
 * import { createOtelSink, otelTraceContext } from '@toolctx/core/otel';
 *
 * const runtime = createRuntime({ tools: [], sinks: [createOtelSink()] });
 * const mcp = serveMcpHttp(runtime, { traceContext: otelTraceContext });
 * ```
 */
export function otelTraceContext<T>(
  carrier: { traceparent: string; tracestate?: string },
  call: () => Promise<T>,
): Promise<T> {
  const parent = remoteParent(carrier);
  return parent ? context.with(parent, call) : call();
}

function remoteParent({
  traceparent,
  tracestate,
}: {
  traceparent: string;
  tracestate?: string;
}): Context | undefined {
  const [, traceId, spanId, flags] = traceparentPattern.exec(traceparent.trim()) ?? [];
  if (!traceId || !spanId || !flags || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return trace.setSpanContext(context.active(), {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & 1,
    isRemote: true,
    ...(tracestate ? { traceState: createTraceState(tracestate) } : {}),
  });
}
