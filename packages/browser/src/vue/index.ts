/**
 * `@toolctx/browser/vue`: `<toolctx-status>` typed in Vue 3 templates. Importing it adds the
 * element to Vue's `GlobalComponents`, so vue-tsc checks `source` and `options`; at run time it
 * is an empty module. Vue sets a custom element's prop as a property when the element has it, as
 * `<toolctx-status>` has `source` and `options` once `defineStatusElement()` ran; tell Vue's
 * compiler it is an element (`isCustomElement`). The guide, with a component, is the package
 * README's "In Vue".
 *
 * @module
 */
import type { DefineComponent } from 'vue';
import type { StatusElement } from '../status/status-element.js';

declare module 'vue' {
  interface GlobalComponents {
    'toolctx-status': DefineComponent<Partial<Pick<StatusElement, 'source' | 'options'>>>;
  }
}
