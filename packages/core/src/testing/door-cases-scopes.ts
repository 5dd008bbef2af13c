import { expect } from 'vitest';
import { TEARDOWN_SCOPES, type TeardownScope } from '../teardown/teardown-registry.js';
import {
  type DoorCaseKit,
  type DoorCases,
  type DoorClient,
  freshKey,
  needs,
  pause,
  successValue,
} from './door-suite-kit.js';
import type { SuiteCase } from './suite-cases.js';

const teardowns = async (client: DoorClient, key: string) =>
  successValue<{ teardowns: number }>(await client.call('door_probe', { key })).teardowns;

function teardownCase(kit: DoorCaseKit, scope: TeardownScope): SuiteCase {
  return needs(
    kit,
    kit.supplies.teardownScopes.includes(scope),
    `${scope} teardown`,
    `a ${scope} cleanup fires exactly once, when the ${scope} ends`,
    () =>
      kit.withClients(async (open) => {
        const client = await open();
        const key = freshKey(`teardown-${scope}`);
        // Twice under one (tool, scope, key): the first registration is kept, the second is not added.
        for (let i = 0; i < 2; i++) {
          expect(successValue(await client.call('door_teardown', { key, scope }))).toEqual({
            registered: true,
          });
        }
        if (scope === 'call') {
          expect(await teardowns(client, key)).toBe(2);
          await pause(20);
          expect(await teardowns(client, key), 'a call cleanup fired again').toBe(2);
          return;
        }
        expect(await teardowns(client, key), `a ${scope} cleanup fired before its ${scope} ended`).toBe(0);
        await client.end(scope);
        const observer = await open();
        expect(await teardowns(observer, key)).toBe(1);
        await pause(20);
        expect(await teardowns(observer, key), `a ${scope} cleanup fired again`).toBe(1);
      }),
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_teardown', { key: freshKey('refused'), scope });
        expect(successValue<{ registered: boolean }>(outcome).registered, `${scope} should be refused`).toBe(
          false,
        );
      }),
  );
}

export const scopeCases: DoorCases = (kit) => [
  ...TEARDOWN_SCOPES.map((scope) => teardownCase(kit, scope)),
  needs(
    kit,
    kit.supplies.artifacts,
    'artifacts',
    'an artifact written through the door is readable by its caller, and by no other',
    () =>
      kit.withClients(async (open) => {
        const ana = await open('ana');
        const { ref } = successValue<{ ref: string }>(
          await ana.call('door_artifact', { text: 'for ana only' }),
        );
        expect(ref).toMatch(/^art_/);
        expect(await ana.readArtifact(ref)).toBe('for ana only');
        const bob = await open('bob');
        expect(await bob.readArtifact(ref)).toBeNull();
        const { ref: bobs } = successValue<{ ref: string }>(
          await bob.call('door_artifact', { text: "bob's" }),
        );
        expect(await ana.readArtifact(bobs)).toBeNull();
      }),
  ),
];
