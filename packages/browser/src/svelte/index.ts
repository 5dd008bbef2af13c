/**
 * `@toolctx/browser/svelte`: `<toolctx-status>` typed in Svelte 5's templates. Importing it adds
 * the element to `SvelteHTMLElements` (`svelte/elements`), so `source` and `options` are checked
 * by svelte-check; at run time it is an empty module. Svelte 5 sets a custom element's prop as a
 * property when the element has a setter for it, as `source` and `options` are. The guide, with a
 * component, is the package README's "In Svelte".
 *
 * @module
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { StatusElement } from '../status/status-element.js';

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'toolctx-status': HTMLAttributes<StatusElement> & Partial<Pick<StatusElement, 'source' | 'options'>>;
  }
}
