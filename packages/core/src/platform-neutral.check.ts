// Compile-time proof that core sees web standards only. If someone adds the DOM lib or Node types
// to core's tsconfig, these lines compile, the expect-error directives go unused, and typecheck fails.

// @ts-expect-error core has no DOM: `document` must not be visible here.
export const noDocument: unknown = document;

// @ts-expect-error core has no Node: `node:fs` must not resolve here.
export const noNodeFs: Promise<unknown> = import('node:fs');

// Web standards are visible.
export const webStandards = [AbortSignal, structuredClone, crypto, TextEncoder, ReadableStream];
