/**
 * `@toolctx/core`: the execution context for AI-agent tool calls, on web standards only.
 *
 * Define tools with {@link defineTool}, serve them with {@link createRuntime}, call them through
 * a run, and watch what they do through the run's events and {@link createStatusModel}.
 *
 * @example
 * ```ts
 * import { createRuntime, defineTool } from '@toolctx/core';
 * import { z } from 'zod';
 *
 * const countWords = defineTool({
 *   name: 'count_words',
 *   description: 'Counts the words in a text.',
 *   input: z.object({ text: z.string() }),
 *   execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
 * });
 * const run = createRuntime({ tools: [countWords] }).startRun();
 * const result = await run.call({ tool: 'count_words', args: { text: 'one two' } });
 * ```
 * @module
 */
export {
  type AnthropicTool,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
  type OpenAiToolsOptions,
  type ToolListOptions,
  type ToolSource,
  toAnthropicTools,
  toOpenAiResponsesTools,
  toOpenAiTools,
} from './adapters/index.js';

export * from './approval/index.js';
export * from './artifacts/index.js';
export * from './cache/index.js';
export { canonicalJson, sha256Hex } from './canonical-json.js';
export { type CallFacts, createToolContext, type RunFacts, type RunStats } from './context/create-context.js';
export type {
  CallRequest,
  Identity,
  ProgressPayload,
  ToolDispatch,
  ToolExecutionContext,
  ToolResult,
} from './context/types.js';
export * from './credentials/index.js';
export { type ErrorInfo, type ErrorKind, ToolctxError, toErrorInfo } from './errors.js';
export {
  type CatalogueEventType,
  checkEvent,
  type EventData,
  type EventDataMap,
  type EventType,
  eventCatalogue,
  type ToolEvent,
} from './events/catalogue.js';
export type { EventSink, RunEvents, SinkErrorHandler } from './events/event-log.js';
export * from './ledger/index.js';
export * from './output/index.js';
export * from './policy/index.js';
export { cloneSafetyProblem } from './progress/clone-safe.js';
export {
  type CallOnceRequest,
  createRuntime,
  type Runtime,
  type RuntimeOptions,
} from './runtime/create-runtime.js';
export { type DoorDeclaration, inProcessDoor } from './runtime/door.js';
export { artifactScope, type Run, type StartRunOptions } from './runtime/run.js';
export { formatDuration, formatNumber } from './status/format.js';
export { cutMessage } from './status/grapheme-cut.js';
export { type LineTiming, lineTiming, type TimingOptions } from './status/line-timing.js';
export {
  createStatusModel,
  type LineClock,
  type RunSummary,
  type StatusLine,
  type StatusModel,
  type StatusModelOptions,
} from './status/status-model.js';
export {
  defaultTemplates,
  type LineState,
  type Template,
  type Templates,
  type TemplateValues,
} from './status/templates.js';
export { germanTemplates } from './status/templates-de.js';
export * from './teardown/index.js';
export {
  type AnyTool,
  defineTool,
  type RetryPolicy,
  type Tool,
  type ToolDefinition,
  type ToolSchema,
  toolSchema,
} from './tools/define-tool.js';
export type { ArgumentIssue, JsonSchema } from './tools/schema.js';
export * from './workspace/index.js';
