import type { DoorDeclaration } from '@toolctx/core';

/** How a call waiting in a run is decided over HTTP, for `approval-pending`'s message. */
const decidesOverHttp =
  'Decide it with POST /approvals/:approvalId and the body { "runId": …, "approved": true | false } as the identity that started the run.';

/**
 * The HTTP door with runs held in memory ({@link createMemoryRunDirectory}): calls and runs end
 * where it can see them; no idle alarm, so no session scope.
 *
 * @example
 * ```ts
 * import { httpDoor } from '@toolctx/edge';
 * httpDoor.teardownScopes; // ['call', 'run']
 * ```
 */
export const httpDoor: DoorDeclaration = Object.freeze({
  name: 'http',
  teardownScopes: Object.freeze(['call', 'run'] as const),
  runIds: true,
  dispatch: true,
  decides: decidesOverHttp,
});

/**
 * The Durable Object run host: a run per object; its idle alarm ends the session.
 *
 * @example
 * ```ts
 * import { durableObjectDoor } from '@toolctx/edge';
 * durableObjectDoor.teardownScopes; // ['call', 'run', 'session']
 * ```
 */
export const durableObjectDoor: DoorDeclaration = Object.freeze({
  name: 'durable-object',
  teardownScopes: Object.freeze(['call', 'run', 'session'] as const),
  runIds: true,
  dispatch: true,
  decides: decidesOverHttp,
});

/**
 * The HTTP door's one-shot route, `POST /calls`: one call outside any run, as MCP's `tools/call`
 * is. No run id, no run or session to end, no `ctx.tools` dispatch; its clean-up fires when the
 * call ends.
 *
 * @example
 * ```ts
 * import { httpCallDoor } from '@toolctx/edge';
 * httpCallDoor.teardownScopes; // ['call']
 * ```
 */
export const httpCallDoor: DoorDeclaration = Object.freeze({
  name: 'http-call',
  teardownScopes: Object.freeze(['call'] as const),
  runIds: false,
  dispatch: false,
  decides:
    'POST /calls has no run in which a call can wait for one, so there is nothing to resume. Start a run with POST /runs, call the tool there (POST /runs/:runId/calls) and decide its approval with POST /approvals/:approvalId.',
});
