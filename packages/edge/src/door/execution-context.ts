import type { Context } from 'hono';

/**
 * The request's `ExecutionContext` (`waitUntil`, and the props an OAuth wrapper such as
 * `@cloudflare/workers-oauth-provider` hands the handler), or `undefined` where the app was
 * called without one (`app.request` in a test): hono's getter throws then.
 */
export function executionContextOf(c: Context): ExecutionContext | undefined {
  try {
    return c.executionCtx as ExecutionContext;
  } catch {
    return undefined;
  }
}
