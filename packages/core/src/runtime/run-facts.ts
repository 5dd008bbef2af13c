import type { ArtifactScope } from '../artifacts/types.js';
import type { Identity } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { AnyTool } from '../tools/define-tool.js';

/**
 * The artifact scope of a run with this identity: tenant, principal and conversation — or, for an
 * anonymous run (neither tenant nor principal), a scope of its own that nobody else can name.
 * Doors use it to read artifacts back for the caller.
 *
 * @example
 * ```ts
 * import { artifactScope } from '@toolctx/core';
 * artifactScope({ tenant: 'acme', principal: 'ana' }); // { tenant: 'acme', principal: 'ana', conversation: '' }
 * ```
 */
export function artifactScope(identity: Readonly<Identity> | undefined, runId?: string): ArtifactScope {
  return scopeFor(identity, runId);
}

export function scopeFor(identity: Readonly<Identity> | undefined, runId: string | undefined): ArtifactScope {
  if (identity?.tenant === undefined && identity?.principal === undefined) {
    return {
      tenant: '',
      principal: `anonymous:${runId ?? nextCallId()}`,
      conversation: identity?.conversationId ?? '',
    };
  }
  return {
    tenant: identity.tenant ?? '',
    principal: identity.principal ?? '',
    conversation: identity.conversationId ?? '',
  };
}

export const runEnded: ErrorInfo = {
  kind: 'aborted',
  message: 'The run has ended; start a new run.',
  retryable: false,
};
export const cancelledByCaller: ErrorInfo = {
  kind: 'aborted',
  message: 'The call was cancelled by its caller.',
  retryable: false,
};

// Call ids need to be unique, not secret: a random prefix per process and a counter. The prefix is
// made on first use because Workers refuse random values at module scope (the Worker fails to start).
let callIdPrefix: string | undefined;
let callCounter = 0;
export function nextCallId(): string {
  callIdPrefix ??= `call_${crypto.randomUUID().slice(0, 8)}_`;
  return callIdPrefix + (++callCounter).toString(36);
}

const started = new WeakMap<AnyTool, Readonly<{ tool: string; timeoutMs?: number }>>();

/**
 * A tool's `tool.started` data, the same every call: one frozen object per tool, shared by its
 * events. A host that keeps every event then keeps one object less per call (each kept object
 * costs a call about a quarter of a microsecond in garbage collection). The timeout travels with
 * the start so a status line can warn before it fires.
 */
export function startedData(tool: AnyTool): Readonly<{ tool: string; timeoutMs?: number }> {
  let data = started.get(tool);
  if (!data) {
    data = Object.freeze(
      tool.timeoutMs === undefined ? { tool: tool.name } : { tool: tool.name, timeoutMs: tool.timeoutMs },
    );
    started.set(tool, data);
  }
  return data;
}
