/**
 * toolctx in the web page.
 *
 * @module
 */
export {};
