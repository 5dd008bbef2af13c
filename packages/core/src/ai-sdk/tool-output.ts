import { withParts } from '../content/content-part.js';
import type { ToolResult } from '../context/types.js';

/**
 * What the AI SDK is given as a finished call's output: the tool's own value, wrapped with its
 * content parts when it returned some, so `toModelOutput` can show them to the model.
 */
export function aiSdkOutput(result: Extract<ToolResult, { ok: true }>): unknown {
  return result.parts ? withParts(result.parts, result.value) : result.value;
}
