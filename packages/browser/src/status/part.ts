/**
 * Makes one element of the widget: with a `name`, its class `toolctx-status__<name>` and the same
 * `part` (for `::part` styling); with `text`, its text (never markup).
 */
export function part<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  name?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  if (name) {
    node.className = `toolctx-status__${name}`;
    node.setAttribute('part', name);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}
