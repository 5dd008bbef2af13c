/**
 * `@toolctx/core/ai-sdk`: toolctx tools as an AI SDK tool set (`ai`, a peer dependency), so
 * `generateText` and `streamText` call them through a toolctx run with its signal, progress and
 * events.
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
export { type AiSdkToolsOptions, toAiSdkTools } from './to-ai-sdk-tools.js';
