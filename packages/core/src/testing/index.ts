/**
 * `@toolctx/core/testing`: the conformance suites every platform store and door must pass.
 *
 * @module
 */
export {};
