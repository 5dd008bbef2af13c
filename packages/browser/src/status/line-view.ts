import type { StatusLine } from '@toolctx/core';

/** The DOM of one call's line, written only through text and attributes, never markup. */
export interface LineView {
  readonly row: HTMLElement;
  update(line: StatusLine): void;
}

/** Makes the elements of one line; `update` touches only what changed. */
export function createLineView(doc: Document): LineView {
  const row = doc.createElement('div');
  row.className = 'toolctx-status__line';
  row.setAttribute('part', 'line');
  const text = doc.createElement('span');
  text.className = 'toolctx-status__text';
  text.setAttribute('part', 'text');
  row.append(text);
  let bar: HTMLProgressElement | undefined;
  return {
    row,
    update(line) {
      if (row.dataset.state !== line.state) row.dataset.state = line.state;
      if (text.textContent !== line.text) text.textContent = line.text;
      const { done, total } = line;
      if (done === undefined || !total) return;
      if (!bar) {
        bar = doc.createElement('progress');
        bar.className = 'toolctx-status__bar';
        bar.setAttribute('part', 'bar');
        bar.setAttribute('aria-label', line.tool);
        row.append(bar);
      }
      if (bar.max !== total) bar.max = total;
      if (bar.value !== done) bar.value = Math.min(done, total);
    },
  };
}
