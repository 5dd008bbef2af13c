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
    // # names, which the minifier shortens: the widget's bundle has a budget.
    #options: Omit<AttachStatusOptions, 'document'> = {};
    #source: StatusSource | undefined;
    #handle: StatusHandle | undefined;

    constructor() {
      super();
      // Set on the element before it was defined (a framework that rendered first, a script that
      // ran early), a property is the element's own and would hide the accessors: taken up here.
      for (const name of ['options', 'source'] as const) {
        if (!Object.hasOwn(this, name)) continue;
        const value = this[name];
        delete (this as Partial<StatusElement>)[name];
        (this as StatusElement)[name] = value as never;
      }
    }

    // An accessor, not a field: Svelte 5 sets a prop as a property only where the element has a setter.
    get options(): Omit<AttachStatusOptions, 'document'> {
      return this.#options;
    }

    set options(options: Omit<AttachStatusOptions, 'document'>) {
      this.#options = options;
    }

    get source(): StatusSource | undefined {
      return this.#source;
    }

    set source(source: StatusSource | undefined) {
      this.#source = source;
      this.#render();
    }

    connectedCallback(): void {
      this.#render();
    }

    disconnectedCallback(): void {
      this.#render(); // no longer connected: it only detaches
    }

    #render(): void {
      this.#handle?.detach();
      this.#handle = undefined;
      if (!this.#source || !this.isConnected) return;
      const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      this.#handle = attachStatus(shadow, this.#source, this.#options);
    }
  }
  registry.define(name, ToolctxStatus);
  return ToolctxStatus;
}
