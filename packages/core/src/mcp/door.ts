import type { DoorDeclaration } from '../runtime/door.js';

/**
 * The MCP door: tools served to MCP clients. An MCP call stands alone — there is no run, so no
 * run id, no run or session teardown, and no `ctx.tools` dispatch — and its clean-up fires when
 * the call ends.
 *
 * @example
 * ```ts
 * import { mcpDoor } from '@toolctx/core/mcp';
 * mcpDoor.teardownScopes; // ['call']
 * ```
 */
export const mcpDoor: DoorDeclaration = Object.freeze({
  name: 'mcp',
  teardownScopes: Object.freeze(['call'] as const),
  runIds: false,
  dispatch: false,
  // Reached only when the client could not be asked: a client that declares elicitation is.
  decides:
    'This MCP server asks the person with elicitation/create, and this client did not declare elicitation, so no one can approve the call here: call it from a client that declares capabilities.elicitation.',
});
