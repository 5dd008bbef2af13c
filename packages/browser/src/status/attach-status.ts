import { createStatusModel, type StatusLine, type StatusModelOptions } from '@toolctx/core';
import { createLineView, type LineView } from './line-view.js';
import { listen, type StatusSource } from './status-source.js';
import { statusCss } from './styles.js';

/** Options of `attachStatus`. */
export interface AttachStatusOptions extends StatusModelOptions {
  /** The document to make elements in. Default: the element's own document. */
  document?: Document;
}

/** What `attachStatus` returns. */
export interface StatusHandle {
  /** Stops listening, cancels a pending frame and removes the widget's DOM. Safe to call twice. */
  detach(): void;
}

/**
 * Renders the live status of `source` into `element`: a line per call, a progress bar where a
 * report has `done` and `total`, and end states (done, failed, cancelled) that dim. Text only,
 * in an `aria-live="polite"` region; however fast events arrive, the DOM is written at most once
 * per animation frame.
 *
 * @example
 * ```ts
 * import { attachStatus } from '@toolctx/browser';
 * const status = attachStatus(document.querySelector('#status')!, run, {
 *   templates: { 'tool.search.progress': 'Searching: {message}' },
 * });
 * await run.call({ tool: 'search', args: { q: 'cats' } });
 * status.detach();
 * ```
 */
export function attachStatus(
  element: Element | ShadowRoot,
  source: StatusSource,
  options: AttachStatusOptions = {},
): StatusHandle {
  const doc = options.document ?? element.ownerDocument;
  const view = doc.defaultView ?? globalThis;
  const model = createStatusModel(options);
  const root = doc.createElement('div');
  root.className = 'toolctx-status';
  root.setAttribute('part', 'status');
  const style = doc.createElement('style');
  style.textContent = statusCss;
  const region = doc.createElement('div');
  region.className = 'toolctx-status__lines';
  region.setAttribute('part', 'lines');
  region.setAttribute('aria-live', 'polite');
  root.append(style, region);
  element.append(root);

  const views = new Map<string, LineView>();
  // Changed lines wait here, one entry per call, until the next frame writes them all.
  const pending = new Map<string, StatusLine>();
  let frame = 0;
  const flush = () => {
    frame = 0;
    for (const line of pending.values()) {
      let lineView = views.get(line.callId);
      if (!lineView) {
        lineView = createLineView(doc);
        views.set(line.callId, lineView);
        region.append(lineView.row);
      }
      lineView.update(line);
    }
    pending.clear();
  };
  const stop = listen(source, (event) => {
    const line = model.apply(event);
    if (!line) return;
    pending.set(line.callId, line);
    frame ||= view.requestAnimationFrame(flush);
  });
  let attached = true;
  return {
    detach() {
      if (!attached) return;
      attached = false;
      stop();
      if (frame) view.cancelAnimationFrame(frame);
      frame = 0;
      pending.clear();
      root.remove();
    },
  };
}
