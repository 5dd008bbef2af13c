/**
 * `@toolctx/core/ai-sdk`: toolctx tools as an AI SDK tool set (`ai`, a peer dependency), so
 * `generateText` and `streamText` call them through a toolctx run with its signal, progress and
 * events; and `chatTools`, which runs the client-side tool calls of an AI SDK UI chat (`useChat`,
 * `Chat`) through a run.
 *
 * @example
 * ```ts
 * import type { Run } from '@toolctx/core';
 * import { toAiSdkTools } from '@toolctx/core/ai-sdk';
 * declare const run: Run;
 * const tools = toAiSdkTools(run);
 * ```
 * @module
 */
export {
  type ChatRun,
  type ChatToolCall,
  type ChatToolOutput,
  type ChatTools,
  type ChatToolsOptions,
  chatTools,
  type ToolOutputChat,
} from './chat-tools.js';
export {
  type AiSdkCallMeta,
  type AiSdkProgress,
  type AiSdkToolsOptions,
  toAiSdkTools,
} from './to-ai-sdk-tools.js';
