/**
 * toolctx in the web page.
 *
 * @module
 */
export * from './stores/index.js';
