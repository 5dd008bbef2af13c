import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { ToolEvent } from '../events/catalogue.js';
import type { EventSink, SinkOrigin } from '../events/event-log.js';
import { spanEventOf } from './span-events.js';

/**
 * Options of {@link createOtelSink}.
 *
 * @experimental May still change with the OpenTelemetry GenAI conventions.
 */
export interface OtelSinkOptions {
  /** The tracer spans are made with. Default: `trace.getTracer('@toolctx/core')`, the global provider's. */
  tracer?: Tracer;
  /**
   * The parent of a call that no other call made: a context, or a function asked as each such
   * call starts. Default: the context active as the call starts (`context.active()`) — or, when
   * no span is active then, the one that was active as its run started.
   */
  parent?: Context | (() => Context);
}

/** A call's span, and the context its child calls start in. */
interface OpenCall {
  span: Span;
  context: Context;
}

/** What the sink keeps of one run (or of the run-less calls of an MCP door, under ''). */
interface RunSpans {
  /** The context active when `run.started` was filed. */
  started: Context | undefined;
  calls: Map<string, OpenCall>;
}

// No explicit times: the sink runs as each event is filed, so the tracer's own clock (finer than
// an event's `ts`, and the one the caller's spans use) places each span and span event.

/** Runs whose `run.finished` never came (a run abandoned at a door) are forgotten past this many. */
const maxRuns = 10_000;

/**
 * An event sink that turns each tool call into an OpenTelemetry span, following the GenAI
 * semantic conventions: an `execute_tool {tool}` span (kind INTERNAL) with `gen_ai.operation.name`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.type` and `gen_ai.tool.description`,
 * and `toolctx.run.id`, `toolctx.door`, `toolctx.tool.effect` and `toolctx.outcome` (`ok`,
 * `error`, `pending`). A failed call has status ERROR with its message and
 * `error.type`, the ErrorInfo's kind. Progress, log entries, retries, approval and credential
 * steps, artifacts and custom events are span events. A call made with `ctx.tools.call` is a child
 * of its parent call's span; any other call's parent is the caller's active span as it starts.
 *
 * There is no span for a run: a run can outlast many requests (HTTP, a Durable Object), so its
 * calls belong under what the caller was doing at each call; `toolctx.run.id` groups them. A call
 * that waits for a person ends its span (`toolctx.outcome: pending`); its resumption is a second
 * span with the same `gen_ai.tool.call.id`.
 *
 * Nothing secret is recorded: events carry no credential value, and the sink records no
 * arguments, results, `ctx.log` data or progress payload beyond its message and numbers.
 *
 * @experimental May still change with the OpenTelemetry GenAI conventions.
 * @example
 * ```ts
 * import { createRuntime, defineTool } from '@toolctx/core';
 * import { createOtelSink } from '@toolctx/core/otel';
 * import { z } from 'zod';
 *
 * const search = defineTool({
 *   name: 'search',
 *   description: 'Searches the docs.',
 *   inputSchema: z.object({ query: z.string() }),
 *   execute: async ({ query }) => `results for ${query}`,
 * });
 * // Spans go to the provider registered globally (an OpenTelemetry SDK set up by the host).
 * const runtime = createRuntime({ tools: [search], sinks: [createOtelSink()] });
 * ```
 */
export function createOtelSink(options: OtelSinkOptions = {}): EventSink {
  const tracer = options.tracer ?? trace.getTracer('@toolctx/core');
  const runs = new Map<string, RunSpans>();

  const runOf = (event: ToolEvent): RunSpans => {
    const key = event.runId ?? '';
    let run = runs.get(key);
    if (!run) {
      run = { started: undefined, calls: new Map() };
      remember(key, run);
    }
    return run;
  };

  const remember = (key: string, run: RunSpans): void => {
    runs.set(key, run);
    if (runs.size > maxRuns) runs.delete(runs.keys().next().value!);
  };

  const parentOf = (event: ToolEvent, run: RunSpans): Context => {
    const parentCall = event.parentId === undefined ? undefined : run.calls.get(event.parentId);
    if (parentCall) return parentCall.context;
    const { parent } = options;
    if (parent) return typeof parent === 'function' ? parent() : parent;
    const active = context.active();
    return trace.getSpan(active) || !run.started ? active : run.started;
  };

  const open = (event: ToolEvent, run: RunSpans, origin: SinkOrigin | undefined): OpenCall => {
    const tool = String((event.data as { tool?: unknown }).tool);
    const callId = event.callId!;
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
    };
    const described = origin?.tools.get(tool);
    if (described) {
      attributes['gen_ai.tool.description'] = described.description;
      attributes['toolctx.tool.effect'] = described.effect;
    }
    if (origin) attributes['toolctx.door'] = origin.door;
    if (event.runId !== undefined) attributes['toolctx.run.id'] = event.runId;
    if (event.parentId !== undefined) attributes['toolctx.call.parent_id'] = event.parentId;
    const parent = parentOf(event, run);
    const span = tracer.startSpan(`execute_tool ${tool}`, { kind: SpanKind.INTERNAL, attributes }, parent);
    const call = { span, context: trace.setSpan(parent, span) };
    run.calls.set(callId, call);
    return call;
  };

  const close = (run: RunSpans, callId: string, call: OpenCall, outcome: string): void => {
    call.span.setAttribute('toolctx.outcome', outcome);
    call.span.end();
    run.calls.delete(callId);
  };

  const handle = (event: ToolEvent, origin: SinkOrigin | undefined): void => {
    const { type, callId } = event;
    if (type === 'run.started') {
      if (event.runId !== undefined) remember(event.runId, { started: context.active(), calls: new Map() });
      return;
    }
    if (type === 'run.finished') {
      const run = runs.get(event.runId ?? '');
      if (!run) return;
      // The runtime settles every call before run.finished; a span still open missed its end
      // (events read back from a stream that trimmed some) and is ended rather than lost.
      for (const [id, call] of run.calls) close(run, id, call, 'unfinished');
      runs.delete(event.runId ?? '');
      return;
    }
    if (callId === undefined) return;
    const run = runOf(event);
    let call = run.calls.get(callId);
    if (type === 'tool.started') {
      open(event, run, origin);
      return;
    }
    if (type === 'tool.finished' || type === 'tool.failed') {
      const data = event.data as ToolEvent<'tool.failed'>['data'];
      // A call that failed before it started (unknown tool, ended run) or after it waited.
      call ??= open(event, run, origin);
      if (type === 'tool.finished') {
        if ((event.data as { spilled?: boolean }).spilled)
          call.span.setAttribute('toolctx.output.spilled', true);
        close(run, callId, call, 'ok');
        return;
      }
      call.span.setAttribute('error.type', data.error.kind);
      call.span.setAttribute('toolctx.error.retryable', data.error.retryable);
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: data.error.message });
      close(run, callId, call, 'error');
      return;
    }
    if (type === 'tool.pending') {
      if (!call) return;
      const { reason } = event.data as ToolEvent<'tool.pending'>['data'];
      call.span.setAttribute('toolctx.pending.reason', reason);
      close(run, callId, call, 'pending');
      return;
    }
    // A call resumed after its approval: the decision opens its second span.
    if (type === 'approval.decided') call ??= open(event, run, origin);
    const spanEvent = call && spanEventOf(event);
    if (spanEvent) call!.span.addEvent(spanEvent.name, spanEvent.attributes);
  };

  const sink = (event: ToolEvent): void => handle(event, undefined);
  return Object.assign(sink, {
    forRuntime: (origin: SinkOrigin) => (event: ToolEvent) => handle(event, origin),
  });
}
