import type { LineClock, LineTiming, StatusLine, StatusPart } from '@toolctx/core/status';
import { part } from './part.js';

/** The DOM of one call's line, written only through text and attributes, never markup. */
export interface LineView {
  readonly row: HTMLElement;
  /**
   * Writes `line` as of `at` (ms, the widget's clock). Returns false when its text was held back by
   * the throttle, or by `hold` (the line is out of view): the caller asks again later, so the
   * latest text always appears. A change of state or note is written whatever holds it.
   */
  update(line: StatusLine, at: number, hold?: boolean): boolean;
  /** When (the widget's clock) the throttle lets this line's text be written again. */
  readonly due: number;
  /**
   * Whether a report can wait for `due` with nothing to show before: the line has no note a
   * report may clear, and its dot is already still.
   */
  readonly waits: boolean;
}

/**
 * A span whose text is written only when it differs from what was last written. The comparison is
 * with a string kept here, not with the DOM (reading `textContent` makes a string each time), and
 * the write changes the one text node's data rather than replacing the span's children.
 */
function textPart(doc: Document, name: string) {
  const node = part(doc, 'span', name);
  const text = node.appendChild(doc.createTextNode(''));
  let shown = '';
  return {
    node,
    set(value: string) {
      if (shown !== value) text.data = shown = value;
    },
  };
}

/**
 * A span holding a line's parts: text as text nodes, a `code` part (a tool's name) as `<code>`.
 * While the parts keep their shape, only the text nodes' data is written, as in `textPart`.
 */
function partsPart(doc: Document, name: string) {
  const node = part(doc, 'span', name);
  let shape = '';
  let texts: Text[] = [];
  const shown: string[] = [];
  return {
    node,
    set(parts: readonly StatusPart[]) {
      let now = '';
      for (const piece of parts) now += piece.type === 'code' ? 'c' : 't';
      if (now !== shape) {
        shape = now;
        shown.length = 0;
        texts = parts.map(() => doc.createTextNode(''));
        node.replaceChildren(
          ...parts.map((piece, at) => {
            if (piece.type !== 'code') return texts[at]!;
            const code = doc.createElement('code');
            code.setAttribute('part', 'code');
            code.append(texts[at]!);
            return code;
          }),
        );
      }
      for (let at = 0; at < parts.length; at++) {
        const value = parts[at]!.text;
        if (shown[at] !== value) texts[at]!.data = shown[at] = value;
      }
    },
  };
}

/**
 * The shortest time between two writes of a running line's text and bar (message, counts, elapsed
 * time, note). Nobody reads sixty changes a second, and each write costs the page a layout of the
 * line (text) or a style pass (the bar's transform); the latest values follow within this time.
 */
export const TEXT_EVERY_MS = 100;

/** Silence after which a reporting line counts as quiet again, and its dot pulses. */
const QUIET_AFTER_MS = 1000;

/** What a line view reads its clock through, so a held-back frame formats nothing. */
export interface LineClocks {
  /** Whether the call is stalled or its timeout near, with no formatting. */
  timing(line: StatusLine): LineTiming;
  /** The same moment with its words: elapsed time and note. */
  clock(line: StatusLine): LineClock;
}

/** Makes the elements of one line; `update` touches only what changed. */
export function createLineView(doc: Document, clocks: LineClocks): LineView {
  const row = part(doc, 'div', 'line');
  const text = partsPart(doc, 'text');
  const note = textPart(doc, 'note');
  const time = textPart(doc, 'time');
  row.append(text.node, note.node, time.node);
  let bar: HTMLElement | undefined;
  let fill: HTMLElement | undefined;
  let state = '';
  let flag = '';
  let textAt = Number.NEGATIVE_INFINITY;
  let valueNow: number | undefined;
  let valueMax: number | undefined;
  let shownSecond: number | undefined;
  let reporting = false;
  return {
    row,
    get due() {
      return textAt + TEXT_EVERY_MS;
    },
    get waits() {
      return !flag && reporting;
    },
    update(line, at, hold) {
      hold ||= at - textAt < TEXT_EVERY_MS;
      // Held back with no note a report may clear and its dot already still: nothing to read. A note
      // that a held-back line comes to need (its timeout near) shows with its text, within 100 ms;
      // the ticker looks only once a second anyway.
      if (hold && state === line.state && !flag && (reporting || !line.reports)) return false;
      const timing = clocks.timing(line);
      const now = timing.nearTimeout ? 'timeout' : timing.stalled ? 'stalled' : '';
      // A change of state or of note is news: shown in this frame, whatever holds the text.
      const news = state !== line.state || flag !== now;
      if (state !== line.state) row.dataset.state = state = line.state;
      if (flag !== now) {
        flag = now;
        if (flag) row.dataset.note = flag;
        else delete row.dataset.note;
      }
      // A line whose reports keep coming shows it is alive by its text; its dot pulses only when quiet
      // (fifty pulsing dots, in view or not, cost a style pass every frame).
      const busy = line.reports > 0 && timing.silentMs < QUIET_AFTER_MS;
      if (reporting !== busy) {
        reporting = busy;
        row.toggleAttribute('data-reporting', busy);
      }
      if (!news && hold) return false;
      const { done, total } = line;
      // The bar and what screen readers get of it follow the text's pace, written only on a change.
      if (done !== undefined && total && (valueNow !== done || valueMax !== total)) {
        if (!bar || !fill) {
          bar = part(doc, 'div', 'bar');
          bar.setAttribute('role', 'progressbar');
          bar.setAttribute('aria-label', line.tool);
          fill = bar.appendChild(part(doc, 'div', 'fill'));
          row.append(bar);
        }
        // A transform moves the fill without a layout.
        fill.style.transform = `scaleX(${Math.min(Math.max(done / total, 0), 1)})`;
        if (valueMax !== total) bar.setAttribute('aria-valuemax', String(total));
        valueMax = total;
        valueNow = done;
        bar.setAttribute('aria-valuenow', String(Math.min(done, total)));
      }
      textAt = at;
      text.set(line.parts);
      // A running line without a note counts whole seconds: its clock is formatted once a second.
      const second = line.endedAt === undefined && !flag ? Math.floor(timing.elapsedMs / 1000) : Number.NaN;
      if (second !== shownSecond) {
        shownSecond = second;
        const clock = clocks.clock(line);
        note.set(clock.note);
        time.set(clock.elapsed);
      }
      return true;
    },
  };
}
