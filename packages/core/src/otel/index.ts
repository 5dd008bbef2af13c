/**
 * `@toolctx/core/otel`: an event sink that turns a run's tool calls into OpenTelemetry spans
 * following the GenAI semantic conventions (`execute_tool` spans). `@opentelemetry/api` is an
 * optional peer dependency: only this entry imports it, so the main entry stays free of it.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createOtelSink } from '@toolctx/core/otel';
 * declare const tools: AnyTool[];
 * const runtime = createRuntime({ tools, sinks: [createOtelSink()] });
 * ```
 * @module
 */
export { createOtelSink, type OtelSinkOptions } from './otel-sink.js';
export { otelTraceContext } from './trace-context.js';
