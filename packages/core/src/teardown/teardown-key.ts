import type { TeardownScope } from './teardown-registry.js';

/**
 * The facts a teardown key is made of. Pass a `ctx` as is: tenant and principal are read from
 * `identity` when not given at the top level, and `toolCallId` stands for `callId`.
 *
 * @example
 * ```ts
 * import { type TeardownKeyFacts, teardownKey } from '@toolctx/core';
 * const facts: TeardownKeyFacts = { tenant: 'acme', principal: 'u1', sessionId: 's1' };
 * teardownKey(facts, 'session'); // 'session|t:acme|p:u1|s:s1'
 * ```
 */
export interface TeardownKeyFacts {
  tenant?: string;
  principal?: string;
  identity?: { tenant?: string; principal?: string };
  runId?: string;
  sessionId?: string;
  callId?: string;
  toolCallId?: string;
}

/**
 * A key for state a tool keeps per scope (a browser per session, a connection per run), composed
 * of who asked and the scope's id: `session` → tenant, principal and sessionId; `run` → tenant,
 * principal and runId; `call` → those and the call id; `shutdown` → tenant and principal. Every
 * part is percent-encoded and marked present or absent, so no crafted value can collide with
 * another key (tenant `a|b` is not tenant `a` with principal `b`; absent is not empty). A
 * `sessionId` is caller data: keyed with the tenant and principal, one caller cannot reach
 * another's session by guessing its id. `ctx.onTeardown(cleanup, { scope })` registers under this
 * key and returns it; compose it yourself where no cleanup is registered.
 *
 * @example
 * ```ts
 * import { type ToolExecutionContext, teardownKey } from '@toolctx/core';
 * declare const ctx: ToolExecutionContext;
 * const browsers = new Map<string, { close(): Promise<void> }>();
 * const open = browsers.get(teardownKey(ctx, 'session')); // the session's browser, if any
 * ```
 */
export function teardownKey(facts: TeardownKeyFacts, scope: TeardownScope): string {
  const tenant = facts.tenant ?? facts.identity?.tenant;
  const principal = facts.principal ?? facts.identity?.principal;
  const parts = [scope, part('t', tenant), part('p', principal)];
  if (scope === 'run' || scope === 'call') parts.push(part('r', facts.runId));
  if (scope === 'call') parts.push(part('c', facts.callId ?? facts.toolCallId));
  if (scope === 'session') parts.push(part('s', facts.sessionId));
  return parts.join('|');
}

function part(label: string, value: string | undefined): string {
  // encodeURIComponent escapes '|' and ':', so a part cannot spill into the next one.
  return value === undefined ? label : `${label}:${encodeURIComponent(String(value))}`;
}
