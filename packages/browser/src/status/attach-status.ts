import {
  createStatusModel,
  lineTiming,
  type RunSummary,
  type StatusLine,
  type StatusModelOptions,
} from '@toolctx/core/status';
import { createAnnouncer } from './announcer.js';
import { askCss } from './ask-form.js';
import { actionsCss, createLineActions, type StatusActions } from './line-actions.js';
import { createLineView, type LineClocks, type LineView } from './line-view.js';
import { part } from './part.js';
import { listen, type StatusSource } from './status-source.js';
import { statusCss } from './styles.js';

/** Options of `attachStatus`: the model's (templates, locale, stallAfterMs, …) and the widget's. */
export interface AttachStatusOptions extends StatusModelOptions {
  /** The document to make elements in. Default: the element's own document. */
  document?: Document;
  /** The clock elapsed time and stalls are read from, in ms on the clock of event `ts`. Default `Date.now`. */
  now?: () => number;
  /** How often, at most, progress is read out to screen readers. Default 5 000 ms. */
  announceEveryMs?: number;
  /** Whether the finished calls start unfolded. Default false. */
  expanded?: boolean;
  /**
   * Per-line controls: Cancel on a running call, Approve and Deny on one waiting for approval, a
   * form (or a link to a page) with Submit, Decline and Cancel on one whose tool asks its user.
   * Each is shown where the source (its `cancel(callId)`, `resume(approvalId, decision)`,
   * `answer(askId, answer)`) or these actions can do it; `false` shows none. A plain async
   * iterable of events offers none of its own.
   */
  actions?: StatusActions | false;
}

/** What `attachStatus` returns. */
export interface StatusHandle {
  /** Stops listening, the ticker and a pending frame, and removes the widget's DOM. Safe to call twice. */
  detach(): void;
}

interface Entry {
  line: StatusLine;
  view: LineView;
  state: StatusLine['state'];
  /** Out of view (scrolled away, or in a scroll box's hidden part): its text waits until it is back. */
  away?: boolean;
}

let widgets = 0;

/** How long before a held-back line is due its frame is asked for (a timer may fire late). */
const EARLY_MS = 10;

/**
 * Renders the live status of `source` into `element`: a run line (`1 running, 1 waiting · 3 of 5 done`), a line
 * per call in flight with its elapsed time, a note when it has been silent for `stallAfterMs` or its
 * timeout is near, a progress bar where a report has `done` and `total`, and the finished calls
 * folded behind a button that unfolds each with its outcome and duration. Text only, from templates.
 * The DOM is written at most once per animation frame however fast events arrive, and a running
 * line's text and bar at most once per 100 ms (the latest always follows within that time; for a line
 * scrolled out of view, within that time of its coming back): nobody reads sixty changes a second,
 * and each costs the page a layout or a style pass. A start, a finish, a failure, a cancel, a stall
 * or timeout note, and folding are shown in the next frame (out of view too). One shared
 * one-second ticker runs only while calls are in flight. A visually hidden `aria-live` region reads
 * out starts, waits, finishes and failures, and progress at most once per `announceEveryMs`.
 *
 * @example
 * ```ts
 * import type { Run } from '@toolctx/core';
 * import { attachStatus } from '@toolctx/browser/status';
 * declare const run: Run;
 * const status = attachStatus(document.querySelector('#status')!, run, {
 *   templates: { 'tool.search.progress': 'Searching: {message}' },
 *   stallAfterMs: 15_000,
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
  const every = options.announceEveryMs ?? 5000;
  if (!(every > 0)) {
    throw new RangeError(
      `attachStatus: announceEveryMs must be a positive number of milliseconds, not ${every}.`,
    );
  }
  const doc = options.document ?? element.ownerDocument;
  const view = doc.defaultView ?? globalThis;
  const now = options.now ?? Date.now;
  const model = createStatusModel(options);
  const root = part(doc, 'div', 'status');
  root.className = 'toolctx-status';
  const style = doc.createElement('style');
  style.textContent = statusCss + actionsCss + askCss;
  const summary = part(doc, 'div', 'summary');
  const lines = part(doc, 'div', 'lines');
  const fold = part(doc, 'div', 'fold');
  const toggle = part(doc, 'button', 'toggle');
  const finished = part(doc, 'div', 'finished');
  const spoken = doc.createElement('div');
  spoken.className = 'toolctx-status__announcer';
  spoken.setAttribute('aria-live', 'polite');
  finished.id = `toolctx-status-finished-${++widgets}`;
  toggle.type = 'button';
  toggle.setAttribute('aria-controls', finished.id);
  let expanded = options.expanded ?? false;
  const unfold = () => {
    toggle.setAttribute('aria-expanded', String(expanded));
    finished.hidden = !expanded;
  };
  unfold();
  toggle.addEventListener('click', () => {
    expanded = !expanded;
    unfold();
  });
  summary.hidden = fold.hidden = true;
  fold.append(toggle, finished);
  root.append(style, summary, lines, fold, spoken);
  element.append(root);
  const announcer = createAnnouncer(spoken, every);
  root.tabIndex = -1; // where focus goes when nothing nearer is left to take it
  const actions = createLineActions(
    doc,
    source,
    options.actions,
    () => (fold.hidden ? root : toggle),
    (callId) => redraw(callId),
    options.maxMessageLength,
  );

  const entries = new Map<string, Entry>();
  const active = new Set<Entry>(); // in flight: what the ticker refreshes
  const dirty = new Set<Entry>(); // waiting for the next frame, one entry per call
  const away = new Set<Entry>(); // out of view with text not yet written: written once back in view
  const rows = new WeakMap<Element, Entry>();
  // Nobody reads a line out of view: its text and bar are written when it comes back (the observer
  // reports it before it is seen, 100 px early). Each written line costs the page layout and paint,
  // and of fifty busy lines most are out of view. Where there is no observer (a DOM emulation in a
  // unit test), every line counts as in view.
  const watcher =
    view.IntersectionObserver &&
    new view.IntersectionObserver(
      (seen) => {
        for (const { target, isIntersecting } of seen) {
          const entry = rows.get(target)!;
          entry.away = !isIntersecting;
          if (isIntersecting && away.delete(entry)) dirty.add(entry);
        }
        if (dirty.size) schedule();
      },
      // The widget's own document is the root: a line is away when scrolled out of its page (or
      // a scroll box in it), not when that page is an iframe its parent shows only in part.
      { root: doc, rootMargin: '100px' },
    );
  let frame = 0;
  let at = now(); // the event clock, read once per frame
  const clocks: LineClocks = {
    timing: (line) => lineTiming(line, at, options),
    clock: (line) => model.clock(line, at),
  };
  let shown: RunSummary | undefined; // the run summary the summary and the toggle show
  let ticker: ReturnType<typeof setInterval> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    frame ||= view.requestAnimationFrame(flush);
  };
  // Lines the throttle holds back are written in the first frame once they are due. A timer asks
  // for that frame shortly before, rather than a frame callback each frame finding nothing due:
  // under a flood of reports most frames would run one (and ask for the next) for nothing. A timer
  // already set is kept, even for a later line: it was set less than 100 ms before a report
  // that comes after it, so that report is still written within 100 ms, with the other lines.
  const wake = (due: number, from = at) => {
    const wait = due - from;
    if (wait <= EARLY_MS) return schedule();
    timer ??= view.setTimeout(() => {
      timer = undefined;
      schedule();
    }, wait - EARLY_MS);
  };
  const tick = () => {
    for (const entry of active) dirty.add(entry);
    schedule();
  };
  /** Writes a line again in the next frame: what its controls learned later (line-actions.ts). */
  const redraw = (callId: string) => {
    const entry = entries.get(callId);
    if (!entry) return;
    dirty.add(entry);
    schedule();
  };
  function flush(): void {
    frame = 0;
    if (!dirty.size) return;
    at = now();
    let next = Number.POSITIVE_INFINITY; // when the first line held back by the throttle is due
    for (const entry of dirty) {
      actions.render(entry.view.row, entry.line);
      const parent = entry.line.endedAt === undefined ? lines : finished;
      if (entry.view.row.parentNode !== parent) parent.append(entry.view.row);
      // A line whose text was held back stays dirty, so its latest text follows in a later frame;
      // one out of view waits for the observer to say it is back.
      if (entry.view.update(entry.line, at, entry.away)) dirty.delete(entry);
      else if (entry.away) {
        dirty.delete(entry);
        away.add(entry);
      } else next = Math.min(next, entry.view.due);
    }
    // The model keeps one summary until a count changes: a frame of reports alone formats nothing.
    const run = model.summary();
    if (shown !== run) {
      shown = run;
      const ended = run.done + run.failed + run.cancelled;
      summary.hidden = run.total === 0;
      summary.textContent = run.text;
      fold.hidden = ended === 0;
      toggle.textContent = model.text(run.failed ? 'finished.toggle.failed' : 'finished.toggle', {
        count: ended,
        failed: run.failed,
      });
    }
    actions.refocus();
    announcer.flush(at);
    // One ticker for every call, alive only while something is in flight.
    if (active.size && !ticker) ticker = view.setInterval(tick, 1000);
    if (!active.size && ticker) stopTicker();
    if (dirty.size) wake(next);
  }
  const stopTicker = () => {
    view.clearInterval(ticker);
    ticker = undefined;
  };

  const stop = listen(source, (event) => {
    actions.see(event);
    const line = model.apply(event);
    if (!line) return;
    let entry = entries.get(line.callId);
    if (entry?.state === line.state) {
      // Whether the live region would read it out now (as of the last frame's clock).
      const said = announcer.progress(line, at);
      // Out of view, a later report changes only words that wait for the line to be back. (The
      // first one is written: it stills the dot, which would pulse at the cost of a style pass.)
      if (entry.away && line.reports > 1) return void away.add(entry);
      // A report that may clear a note, still the dot or be read out is shown in the next frame.
      // Otherwise it only changes text the throttle may hold: a line already queued has its frame
      // asked for, or a timer set for when it is due; one written less than 100 ms ago waits so too.
      const waits = entry.view.waits && !said;
      if (waits && dirty.has(entry)) return;
      dirty.add(entry);
      return waits ? wake(entry.view.due, now()) : schedule();
    }
    if (!entry) {
      entry = { line, view: createLineView(doc, clocks), state: line.state };
      entries.set(line.callId, entry);
      rows.set(entry.view.row, entry);
      watcher?.observe(entry.view.row);
    }
    entry.state = line.state;
    announcer.milestone(line.text);
    if (line.endedAt === undefined) active.add(entry);
    else {
      active.delete(entry);
      // Out and in again, so the next frame moves finished rows to the fold in the order the calls
      // ended, whatever frame a held-back line was first marked in.
      dirty.delete(entry);
    }
    dirty.add(entry);
    schedule();
  });
  let attached = true;
  return {
    detach() {
      if (!attached) return;
      attached = false;
      stop();
      if (frame) view.cancelAnimationFrame(frame);
      frame = 0;
      view.clearTimeout(timer);
      stopTicker();
      watcher?.disconnect();
      dirty.clear();
      root.remove();
    },
  };
}
