import type { LineClock, StatusLine } from '@toolctx/core';

/** The DOM of one call's line, written only through text and attributes, never markup. */
export interface LineView {
  readonly row: HTMLElement;
  update(line: StatusLine, clock: LineClock): void;
}

function part(doc: Document, tag: string, name: string): HTMLElement {
  const node = doc.createElement(tag);
  node.className = `toolctx-status__${name}`;
  node.setAttribute('part', name);
  return node;
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

/** Makes the elements of one line; `update` touches only what changed. */
export function createLineView(doc: Document): LineView {
  const row = part(doc, 'div', 'line');
  const text = textPart(doc, 'text');
  const note = textPart(doc, 'note');
  const time = textPart(doc, 'time');
  row.append(text.node, note.node, time.node);
  let bar: HTMLProgressElement | undefined;
  let state = '';
  let flag = '';
  let max = 0;
  let value = -1;
  return {
    row,
    update(line, clock) {
      if (state !== line.state) row.dataset.state = state = line.state;
      const now = clock.nearTimeout ? 'timeout' : clock.stalled ? 'stalled' : '';
      if (flag !== now) {
        flag = now;
        if (flag) row.dataset.note = flag;
        else delete row.dataset.note;
      }
      text.set(line.text);
      note.set(clock.note);
      time.set(clock.elapsed);
      const { done, total } = line;
      if (done === undefined || !total) return;
      if (!bar) {
        bar = part(doc, 'progress', 'bar') as HTMLProgressElement;
        bar.setAttribute('aria-label', line.tool);
        row.append(bar);
      }
      if (max !== total) bar.max = max = total;
      const shown = Math.min(done, total);
      if (value !== shown) bar.value = value = shown;
    },
  };
}
