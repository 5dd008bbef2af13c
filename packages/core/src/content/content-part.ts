/**
 * One piece of a tool's result beyond plain text, in the shape every door understands: MCP sends
 * it as MCP content, the AI SDK adapter as tool-result content, the HTTP and Web Worker doors as
 * plain data. `data` and `blob` are base64; the transcript copy a model reads never carries them.
 *
 * @experimental Content parts may still change.
 */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mediaType: string }
  | { type: 'audio'; data: string; mediaType: string }
  /** An embedded resource: exactly one of `text` and `blob` (base64). */
  | { type: 'resource'; uri: string; mediaType?: string; text?: string; blob?: string }
  | {
      type: 'resource-link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mediaType?: string;
      size?: number;
    };

/**
 * What {@link withParts} returns and `execute` may return: content parts, and beside them the
 * tool's structured value (checked against its `outputSchema`, MCP's `structuredContent`).
 *
 * @experimental Content parts may still change.
 */
export interface ToolParts<Value = undefined> {
  /**
   * The mark the runtime knows it by: a string key (as Standard Schema's `~standard`), so a cached
   * result or another copy of core still knows it.
   */
  readonly '~toolctx': 'parts';
  readonly parts: readonly ContentPart[];
  readonly value: Value;
}

/**
 * Returns content parts from a tool's `execute`, with or without a structured value beside them.
 * The call's `ToolResult` then carries `parts` and `value`; its `content` (the transcript copy)
 * is the parts written as text, with each image, audio clip or resource blob as a short note
 * naming its kind, media type and size. The runtime checks the parts: a malformed one (bad
 * base64, no media type, a resource with both or neither of `text` and `blob`) fails the call
 * with a `tool-error` naming it.
 *
 * @experimental Content parts may still change.
 * @example
 * ```ts
 * import { defineTool, withParts } from '@toolctx/core';
 * import { z } from 'zod';
 *
 * declare function renderChart(series: number[]): Promise<string>; // a base64 PNG
 *
 * export const chart = defineTool({
 *   name: 'chart',
 *   description: 'Draws a line chart of a series.',
 *   inputSchema: z.object({ series: z.array(z.number()) }),
 *   outputSchema: z.object({ points: z.number() }),
 *   execute: async ({ series }) =>
 *     withParts(
 *       [
 *         { type: 'text', text: `A chart of ${series.length} points.` },
 *         { type: 'image', data: await renderChart(series), mediaType: 'image/png' },
 *       ],
 *       { points: series.length },
 *     ),
 * });
 * ```
 */
export function withParts(parts: readonly ContentPart[]): ToolParts<undefined>;
export function withParts<Value>(parts: readonly ContentPart[], value: Value): ToolParts<Value>;
export function withParts(parts: readonly ContentPart[], value?: unknown): ToolParts<unknown> {
  return { '~toolctx': 'parts', parts, value };
}

/** Whether a tool's return value came from {@link withParts}. One check, on the fast path too. */
export function isToolParts(value: unknown): value is ToolParts<unknown> {
  return typeof value === 'object' && value !== null && (value as ToolParts<unknown>)['~toolctx'] === 'parts';
}
