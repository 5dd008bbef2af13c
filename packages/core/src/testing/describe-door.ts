import { describe } from 'vitest';
import { askCases } from './door-cases-asks.js';
import { handleCases } from './door-cases-handles.js';
import { progressCases } from './door-cases-progress.js';
import { resultCases } from './door-cases-results.js';
import { scopeCases } from './door-cases-scopes.js';
import type { DoorCaseKit, DoorClient, DoorSuiteOptions } from './door-suite-kit.js';
import { doorSuiteTools } from './door-suite-tools.js';
import { registerCases } from './suite-cases.js';

/**
 * Registers the door conformance cases with vitest: one fixed set of calls through a door, with
 * the same tools (`doorSuiteTools()`) at every door. Results and error kinds must equal the
 * in-process door's; a foreign exception's message must cross nowhere; progress must arrive in
 * order, intact and before the result; a non-cloneable report is refused while the call succeeds;
 * a caller's abort reaches `ctx.signal`; a tool ignoring its signal settles at its timeout; a
 * door with handles keeps each call's status and result (after a reconnect too, and honestly
 * `interrupted` after its host restarts); and the context must state what `supplies` declares. A capability the door does not declare
 * (a teardown scope, dispatch, artifacts, credentials, events) is reported as not applicable by
 * name, and its absence checked; a declared one must pass.
 *
 * @example
 * ```ts
 * import { createRuntime, inProcessDoor } from '@toolctx/core';
 * import { describeDoor, runDoorClient } from '@toolctx/core/testing';
 *
 * describeDoor('in-process', {
 *   supplies: { ...inProcessDoor, artifacts: false, credentials: false, events: true },
 *   connect: async (tools, { caller }) =>
 *     runDoorClient(createRuntime({ tools }).startRun({ identity: { tenant: 'door-suite', principal: caller } })),
 * });
 * ```
 */
export function describeDoor(name: string, options: DoorSuiteOptions): void {
  const { supplies } = options;
  if (supplies.runIds === undefined || !Array.isArray(supplies.teardownScopes)) {
    throw new TypeError(
      `describeDoor('${name}'): supplies must spread the door's DoorDeclaration ({ ...httpDoor, artifacts, credentials, events }).`,
    );
  }
  const tools = doorSuiteTools();
  const kit: DoorCaseKit = {
    name: supplies.name,
    supplies,
    tools,
    async withClients(use) {
      const opened: DoorClient[] = [];
      try {
        return await use(async (caller = 'ana') => {
          const client = await options.connect(tools, { caller });
          opened.push(client);
          return client;
        });
      } finally {
        await Promise.all(opened.map((client) => client.close()));
      }
    },
  };
  describe(`door conformance: ${name}`, () => {
    registerCases(
      [resultCases, progressCases, scopeCases, handleCases, askCases].flatMap((make) => make(kit)),
    );
  });
}
