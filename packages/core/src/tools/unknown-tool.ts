import type { ErrorInfo } from '../errors.js';

/**
 * The one place the `unknown-tool` failure is composed: the name asked for, and the tools there
 * are (in `details.available`), so a model can pick again. Doors that refuse a call before it
 * reaches a run (such as the HTTP door's 404) answer with it too.
 *
 * @example
 * ```ts
 * import { unknownToolError } from '@toolctx/core';
 * unknownToolError('delete_all', ['read', 'write']).message;
 * // 'There is no tool named "delete_all". Available: read, write.'
 * ```
 */
export function unknownToolError(name: string, available: Iterable<string>): ErrorInfo {
  const names = [...available];
  return {
    kind: 'unknown-tool',
    message: `There is no tool named ${JSON.stringify(name)}. Available: ${names.join(', ') || '(none)'}.`,
    retryable: false,
    details: { available: names },
  };
}
