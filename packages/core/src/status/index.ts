/**
 * `@toolctx/core/status`: the live-status model — a pure, incremental reducer from a run's events
 * to one line per call (O(1) per event), with the templates that word each line. The browser's
 * `attachStatus` widget renders it; anything else (a terminal, a chat bubble) can too.
 *
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { createStatusModel } from '@toolctx/core/status';
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
export type { StatusLine } from './status-line.js';
export {
  createStatusModel,
  type LineClock,
  type RunSummary,
  type StatusModel,
  type StatusModelOptions,
} from './status-model.js';
export {
  defaultTemplates,
  type LineState,
  type Template,
  type Templates,
  type TemplateValues,
} from './templates.js';
export { germanTemplates } from './templates-de.js';
