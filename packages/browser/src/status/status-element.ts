import { type AttachStatusOptions, attachStatus, type StatusHandle } from './attach-status.js';
import type { StatusSource } from './status-source.js';

/** The `<toolctx-status>` element: `attachStatus` in a shadow root, fed through its `source` property. */
export interface StatusElement extends HTMLElement {
  /** The run, stream or recording to show; setting it replaces what was shown. */
  source: StatusSource | undefined;
  /** Templates and message length; takes effect at the next `source`. */
  options: Omit<AttachStatusOptions, 'document'>;
}

/**
 * Registers the `<toolctx-status>` custom element (or under another name) and returns its class.
 * Registering the same name again returns the class already registered. The element renders in an
 * open shadow root whose parts (`status`, `summary`, `lines`, `line`, `text`, `note`, `code`, `time`, `bar`,
 * `fold`, `toggle`, `finished`) can be styled with `::part`.
 *
 * @example
 * ```ts
 * import type { Run } from '@toolctx/core';
 * import { defineStatusElement, type StatusElement } from '@toolctx/browser/status';
 * declare const run: Run;
 * defineStatusElement();
 * const status = document.createElement('toolctx-status') as StatusElement;
 * document.body.append(status);
 * status.source = run;
 * ```
 */
export function defineStatusElement(
  name = 'toolctx-status',
  registry: CustomElementRegistry = customElements,
): CustomElementConstructor & (new () => StatusElement) {
  const known = registry.get(name);
  if (known) return known as CustomElementConstructor & (new () => StatusElement);
  // Made here, not at import, so the module loads where HTMLElement does not exist (Node, a Worker).
  class ToolctxStatus extends HTMLElement implements StatusElement {
    options: Omit<AttachStatusOptions, 'document'> = {};
    private current: StatusSource | undefined;
    private handle: StatusHandle | undefined;

    get source(): StatusSource | undefined {
      return this.current;
    }

    set source(source: StatusSource | undefined) {
      this.current = source;
      this.render();
    }

    connectedCallback(): void {
      this.render();
    }

    disconnectedCallback(): void {
      this.handle?.detach();
      this.handle = undefined;
    }

    private render(): void {
      this.handle?.detach();
      this.handle = undefined;
      if (!this.current || !this.isConnected) return;
      const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      this.handle = attachStatus(shadow, this.current, this.options);
    }
  }
  registry.define(name, ToolctxStatus);
  return ToolctxStatus;
}
