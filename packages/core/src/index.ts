/**
 * `@toolctx/core`: the execution context for AI-agent tool calls, on web standards only.
 *
 * @example
 * ```ts
 * import { toErrorInfo } from '@toolctx/core';
 * ```
 * @module
 */

export * from './approval/index.js';
export { canonicalJson, sha256Hex } from './canonical-json.js';
export * from './credentials/index.js';
export { type ErrorInfo, type ErrorKind, ToolctxError, toErrorInfo } from './errors.js';
export * from './policy/index.js';
export * from './teardown/index.js';
