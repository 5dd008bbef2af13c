/**
 * `@toolctx/core/ai-sdk`: toolctx tools as an AI SDK tool set (`ai`, a peer dependency), so
 * `generateText` and `streamText` call them through a toolctx run with its signal, progress and
 * events.
 *
 * @example
 * ```ts
 * import { toAiSdkTools } from '@toolctx/core/ai-sdk';
 * const tools = toAiSdkTools(run);
 * ```
 * @module
 */
export { type AiSdkToolsOptions, toAiSdkTools } from './to-ai-sdk-tools.js';
