import { expect } from 'vitest';
import type { CallRequest, ToolResult } from '../context/types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { type DoorCases, errorOf, needs, successValue } from './door-suite-kit.js';
import { doorSuiteCredential, doorSuiteImage, doorSuiteSecret, doorSuiteTenant } from './door-suite-tools.js';

/** Calls whose results every door must give exactly as the in-process door does. */
const reference: { label: string; call: Omit<CallRequest, 'signal'> }[] = [
  { label: 'a success', call: { tool: 'door_echo', args: { text: 'héllo ✓' } } },
  { label: 'content parts', call: { tool: 'door_parts', args: {} } },
  { label: 'a tool-error', call: { tool: 'door_fail', args: {} } },
  { label: 'args-invalid', call: { tool: 'door_echo', args: { text: 42 } } },
  { label: 'unknown-tool', call: { tool: 'door_no_such_tool', args: {} } },
];

/** What must match: all of a success; kind, message and retryable of a failure. */
function comparable(result: ToolResult) {
  if (result.ok) return result;
  const { kind, message, retryable } = result.error;
  return { ok: false, error: { kind, message, retryable } };
}

export const resultCases: DoorCases = (kit) => [
  ...reference.map(({ label, call }) => ({
    title: `${label} gives the same result as the in-process door`,
    run: () =>
      kit.withClients(async (open) => {
        const run = createRuntime({ tools: kit.tools }).startRun({
          identity: { tenant: doorSuiteTenant, principal: 'ana' },
        });
        const expected = await run.call(call);
        await run.end();
        const outcome = await (await open()).call(call.tool, call.args);
        expect(comparable(outcome.result)).toEqual(comparable(expected));
      }),
  })),
  {
    title: 'content parts reach the caller whole, and their base64 is in no transcript or event',
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_parts', {});
        if (!outcome.result.ok) expect.fail(`the call failed: ${JSON.stringify(outcome.result.error)}`);
        const { content, parts } = outcome.result;
        expect(parts?.map((part) => part.type)).toEqual([
          'text',
          'image',
          'audio',
          'resource',
          'resource',
          'resource-link',
        ]);
        expect(content).toContain('[image image/png, 70 B]');
        expect(content).not.toContain(doorSuiteImage);
        expect(JSON.stringify(outcome.events)).not.toContain(doorSuiteImage);
      }),
  },
  {
    title: "a foreign exception's message crosses in no result, progress or event",
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_throw_foreign', {});
        expect(errorOf(outcome).kind).toBe('tool-error');
        // MCP numbers a report without `done` itself, so only the message is compared.
        expect(outcome.progress.map((payload) => (payload as { message?: string }).message)).toEqual([
          'about to throw',
        ]);
        expect(JSON.stringify(outcome)).not.toContain(doorSuiteSecret);
      }),
  },
  {
    title: 'the context states the declared run ids, dispatch and teardown scopes',
    run: () =>
      kit.withClients(async (open) => {
        const client = await open();
        const outcome = await client.call('door_context', {});
        const facts = successValue<{ runId: string | null; dispatch: boolean; teardownScopes: string[] }>(
          outcome,
        );
        expect(facts.dispatch).toBe(kit.supplies.dispatch);
        expect([...facts.teardownScopes].sort()).toEqual([...kit.supplies.teardownScopes].sort());
        const eventRunIds = outcome.events.map((event) => event.runId ?? null);
        if (!kit.supplies.runIds) {
          expect(facts.runId).toBeNull();
          expect(eventRunIds.filter((runId) => runId !== null)).toEqual([]);
          return;
        }
        expect(facts.runId).toEqual(expect.any(String));
        if (client.runId !== undefined) expect(facts.runId).toBe(client.runId);
        for (const runId of eventRunIds) expect(runId).toBe(facts.runId);
      }),
  },
  needs(
    kit,
    kit.supplies.dispatch,
    'dispatch',
    'a child call through ctx.tools runs in the same run, linked to its parent',
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_parent', { text: 'from the child' });
        const { child } = successValue<{ child: ToolResult }>(outcome);
        expect(child).toEqual({
          ok: true,
          value: { echo: 'from the child' },
          content: '{"echo":"from the child"}',
        });
        if (!kit.supplies.events) return;
        const parent = outcome.events.find((event) => event.type === 'tool.started');
        const started = outcome.events.filter((event) => event.type === 'tool.started');
        expect(started.map((event) => (event.data as { tool: string }).tool)).toEqual([
          'door_parent',
          'door_echo',
        ]);
        expect(started[1]!.parentId).toBe(parent!.callId);
      }),
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_parent', { text: 'no child' });
        expect(successValue(outcome)).toEqual({ child: null });
      }),
  ),
  needs(
    kit,
    kit.supplies.credentials,
    'credentials',
    "ctx.credentials resolves the host's credential, and its value crosses nowhere, not even in the tool's own progress, log and events",
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_credential', {});
        expect(successValue(outcome)).toEqual({ hasCredentials: true, matches: true });
        expect(JSON.stringify(outcome)).not.toContain(doorSuiteCredential.value);
        if (kit.supplies.events) {
          const progress = outcome.events.find((event) => event.type === 'tool.progress');
          expect(progress?.data).toMatchObject({ payload: { message: 'using [redacted]' } });
        }
      }),
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_credential', {});
        expect(successValue(outcome)).toEqual({ hasCredentials: false, matches: false });
      }),
  ),
];
