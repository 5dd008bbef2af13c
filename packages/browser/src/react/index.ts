/**
 * `@toolctx/browser/react`: `<toolctx-status>` typed in React 19's JSX. Importing it adds the
 * element to `React.JSX.IntrinsicElements`; at run time it is an empty module. React 19 sets a
 * custom element's props as properties when the element has them, so `source` (a `Run`, any
 * `StatusSource`) and `options` (templates, actions) go in as objects, as long as
 * `defineStatusElement()` ran before the first render.
 *
 * @example
 * ```tsx
 * import '@toolctx/browser/react';
 * import { defineStatusElement } from '@toolctx/browser/status';
 * import type { Run } from '@toolctx/core';
 *
 * defineStatusElement();
 * export function RunStatus({ run }: { run: Run }) {
 *   return <toolctx-status source={run} />;
 * }
 * ```
 * @module
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { StatusElement } from '../status/status-element.js';
import type { StatusSource } from '../status/status-source.js';

/** The props of `<toolctx-status>` in React: an HTML element's, and the element's two properties. */
export interface StatusElementProps extends DetailedHTMLProps<HTMLAttributes<StatusElement>, StatusElement> {
  /** The run, stream or recording to show; a new one replaces what was shown. */
  source?: StatusSource | undefined;
  /** Templates, message length and actions, read when the widget attaches (a mount, a new `source`). */
  options?: StatusElement['options'] | undefined;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'toolctx-status': StatusElementProps;
    }
  }
}
