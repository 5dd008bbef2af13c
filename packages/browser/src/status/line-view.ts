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

const set = (node: HTMLElement, text: string) => {
  if (node.textContent !== text) node.textContent = text;
};

/** Makes the elements of one line; `update` touches only what changed. */
export function createLineView(doc: Document): LineView {
  const row = part(doc, 'div', 'line');
  const text = part(doc, 'span', 'text');
  const note = part(doc, 'span', 'note');
  const time = part(doc, 'span', 'time');
  row.append(text, note, time);
  let bar: HTMLProgressElement | undefined;
  return {
    row,
    update(line, clock) {
      if (row.dataset.state !== line.state) row.dataset.state = line.state;
      const flag = clock.nearTimeout ? 'timeout' : clock.stalled ? 'stalled' : '';
      if ((row.dataset.note ?? '') !== flag) {
        if (flag) row.dataset.note = flag;
        else delete row.dataset.note;
      }
      set(text, line.text);
      set(note, clock.note);
      set(time, clock.elapsed);
      const { done, total } = line;
      if (done === undefined || !total) return;
      if (!bar) {
        bar = part(doc, 'progress', 'bar') as HTMLProgressElement;
        bar.setAttribute('aria-label', line.tool);
        row.append(bar);
      }
      if (bar.max !== total) bar.max = total;
      if (bar.value !== done) bar.value = Math.min(done, total);
    },
  };
}
