/**
 * `@toolctx/core/status`: the live-status model — a pure, incremental reducer from a run's events
 * to one line per call (O(1) per event), with the templates that word each line. The browser's
 * `attachStatus` widget renders it; anything else (a terminal, a chat bubble) can too.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createStatusModel } from '@toolctx/core/status';
 * declare const tools: AnyTool[];
 *
 * const run = createRuntime({ tools }).startRun();
 * const status = createStatusModel();
 * run.events.subscribe((event) => status.apply(event));
 * ```
 * @module
 */
export { formatDuration, formatNumber } from './format.js';
export { cutMessage } from './grapheme-cut.js';
export { type LineTiming, lineTiming, type TimingOptions } from './line-timing.js';
export type { LineState, StatusLine, StatusPart } from './status-line.js';
export {
  createStatusModel,
  type LineClock,
  type RunSummary,
  type StatusModel,
  type StatusModelOptions,
} from './status-model.js';
export {
  defaultTemplates,
  type Template,
  type Templates,
  type TemplateValues,
} from './templates.js';
export { germanTemplates } from './templates-de.js';
