import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AskSchema } from '../ask/ask.js';
import { withParts } from '../content/content-part.js';
import type { CredentialProvider } from '../credentials/credential-provider.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import { ToolctxError } from '../errors.js';
import type { TeardownScope } from '../teardown/teardown-registry.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import type { JsonSchema } from '../tools/schema.js';

/** The message a suite tool throws as a foreign exception: it must cross no door. */
export const doorSuiteSecret = 'door-secret-7f3a9c';

/** The length of the text `door_big_progress` reports: more than a Durable Object keeps in one value (2 MB). */
export const doorSuiteBigTextLength = 3 * 1024 * 1024;

/** The credential the suite's tools ask for, and its value (which must never appear in a result). */
/** The form `door_ask` shows. */
export const doorSuiteAskForm: AskSchema = {
  type: 'object',
  properties: {
    colour: { type: 'string', title: 'Colour', enum: ['red', 'green'] },
    count: { type: 'integer', title: 'Count', minimum: 1, maximum: 9 },
    note: { type: 'string', maxLength: 40 },
  },
  required: ['colour', 'count'],
};

export const doorSuiteCredential = { name: 'door-suite', value: 'door-secret-credential-51b2' } as const;

/** The base64 image `door_parts` returns: it must reach the caller in its parts and nowhere else. */
export const doorSuiteImage =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** The tenant every suite caller belongs to; each caller is a principal of it. */
export const doorSuiteTenant = 'door-suite';

/** How long `door_ignore_signal` may run before its timeout settles it, in ms. */
export const doorSuiteTimeoutMs = 150;

/**
 * The credential provider a door's host wires when it declares `credentials`.
 *
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { doorSuiteCredentials, doorSuiteTools } from '@toolctx/core/testing';
 * const runtime = createRuntime({ tools: doorSuiteTools(), credentials: doorSuiteCredentials() });
 * ```
 */
export function doorSuiteCredentials(): CredentialProvider {
  return staticCredentials({ [doorSuiteCredential.name]: doorSuiteCredential.value });
}

type Field = 'string' | 'number';

/** A small Standard Schema for flat objects, so the suite needs no schema library. */
function shape(fields: Record<string, Field>): {
  inputSchema: StandardSchemaV1<Record<string, never>>;
  inputJsonSchema: JsonSchema;
} {
  const names = Object.keys(fields);
  return {
    inputSchema: {
      '~standard': {
        version: 1,
        vendor: 'toolctx-door-suite',
        validate(value) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            return { issues: [{ message: 'Expected an object of named arguments.' }] };
          }
          const record = value as Record<string, unknown>;
          const issues = names
            .filter((name) => typeof record[name] !== fields[name])
            .map((name) => ({ message: `Expected a ${fields[name]}.`, path: [name] }));
          return issues.length > 0 ? { issues } : { value: record as Record<string, never> };
        },
      },
    },
    inputJsonSchema: {
      type: 'object',
      properties: Object.fromEntries(names.map((name) => [name, { type: fields[name] }])),
      required: names,
      additionalProperties: false,
    },
  };
}

const arg = <T>(args: unknown, name: string) => (args as Record<string, T>)[name] as T;

/**
 * The tools `describeDoor` calls, the same at every door. A door across a boundary (a Worker, an
 * HTTP server, an MCP server) serves its own `doorSuiteTools()`: call it once where the tools run,
 * since `door_probe` reads what the other tools recorded in that copy.
 *
 * @example
 * ```ts
 * // tools.worker.ts
 * import { createRuntime } from '@toolctx/core';
 * import { doorSuiteTools } from '@toolctx/core/testing';
 * import { serveInWorker } from '@toolctx/browser/worker';
 * serveInWorker(createRuntime({ tools: doorSuiteTools() }));
 * ```
 */
export function doorSuiteTools(): AnyTool[] {
  const probes = new Map<string, { teardowns: number; started: boolean; aborted: boolean }>();
  const probe = (key: string) => {
    const entry = probes.get(key) ?? { teardowns: 0, started: false, aborted: false };
    probes.set(key, entry);
    return entry;
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return [
    defineTool({
      name: 'door_echo',
      description: 'Says the text back.',
      ...shape({ text: 'string' }),
      execute: (args) => ({ echo: arg<string>(args, 'text') }),
    }),
    defineTool({
      name: 'door_parts',
      description: 'Returns content parts of every kind, with a structured value beside them.',
      ...shape({}),
      execute: () =>
        withParts(
          [
            { type: 'text', text: 'A red pixel:' },
            { type: 'image', data: doorSuiteImage, mediaType: 'image/png' },
            { type: 'audio', data: doorSuiteImage, mediaType: 'audio/wav' },
            { type: 'resource', uri: 'test://door/notes', mediaType: 'text/plain', text: 'notes' },
            { type: 'resource', uri: 'test://door/pixel', mediaType: 'image/png', blob: doorSuiteImage },
            { type: 'resource-link', uri: 'test://door/big', name: 'big', size: 12 },
          ],
          { pixels: 1 },
        ),
    }),
    defineTool({
      name: 'door_fail',
      description: 'Fails with a toolctx error.',
      ...shape({}),
      execute: () => {
        throw new ToolctxError('tool-error', 'door_fail failed because it was asked to.');
      },
    }),
    defineTool({
      name: 'door_throw_foreign',
      description: 'Throws an exception that is not a toolctx error.',
      ...shape({}),
      execute: (_args, ctx) => {
        ctx.progress({ message: 'about to throw' });
        throw new Error(`${doorSuiteSecret}: a foreign message`);
      },
    }),
    defineTool({
      name: 'door_steps',
      description: 'Reports `count` steps of progress.',
      ...shape({ count: 'number' }),
      execute: async (args, ctx) => {
        const count = arg<number>(args, 'count');
        for (let done = 1; done <= count; done++) {
          ctx.progress({ message: `step ${done} of ${count}`, done, total: count });
          await sleep(2);
        }
        return { steps: count };
      },
    }),
    defineTool({
      name: 'door_bad_progress',
      description: 'Reports progress that cannot be cloned, then a plain report.',
      ...shape({}),
      execute: (_args, ctx) => {
        ctx.progress({ message: 'not plain', handle: () => 1 } as never);
        ctx.progress({ message: 'plain', done: 1, total: 1 });
        return { reported: true };
      },
    }),
    defineTool({
      name: 'door_plain_data',
      description: 'Reports progress and a custom event of plain data that is not JSON.',
      ...shape({}),
      execute: (_args, ctx) => {
        ctx.progress({ message: 'sizes', big: 2n ** 70n, map: new Map([['a', 1]]), set: new Set([1]) });
        const loop: Record<string, unknown> = { name: 'loop' };
        loop.self = loop;
        ctx.emit('looped', { loop, again: loop });
        return { reported: true };
      },
    }),
    defineTool({
      name: 'door_big_progress',
      description: 'Reports a page of 3 MiB of text, then that it is done.',
      ...shape({}),
      execute: (_args, ctx) => {
        ctx.progress({ message: 'page', text: 'x'.repeat(doorSuiteBigTextLength) });
        ctx.progress({ message: 'done' });
        return { reported: true };
      },
    }),
    defineTool({
      name: 'door_deep_report',
      description:
        'Reports and logs data nested 3,000 deep (what parsing a hostile page gives), then a plain report.',
      ...shape({}),
      execute: (_args, ctx) => {
        const deep = JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`);
        ctx.progress({ message: 'deep', deep });
        ctx.log('info', 'deep', deep);
        ctx.progress({ message: 'after' });
        return { reported: true };
      },
    }),
    defineTool({
      name: 'door_log',
      description: 'Logs a warning with data and a debug line.',
      ...shape({}),
      execute: (_args, ctx) => {
        ctx.log('warning', 'a page was skipped', { page: 3 });
        ctx.log('debug', 'done looking');
        return { logged: 2 };
      },
    }),
    defineTool({
      name: 'door_wait_for_abort',
      description: 'Runs until its signal fires, recording that it did under `key`.',
      ...shape({ key: 'string' }),
      execute: (args, ctx) =>
        new Promise((_resolve, reject) => {
          const entry = probe(arg(args, 'key'));
          entry.started = true;
          ctx.signal.addEventListener('abort', () => {
            entry.aborted = true;
            reject(ctx.signal.reason);
          });
          ctx.progress({ message: 'waiting for abort' });
        }),
    }),
    defineTool({
      name: 'door_ask',
      description:
        'Asks its user for a colour and a count (a form), and answers what it got. Safe to run again.',
      ...shape({}),
      idempotent: true,
      execute: (_args, ctx) => ctx.ask({ message: 'Pick a colour and a count.', schema: doorSuiteAskForm }),
    }),
    defineTool({
      name: 'door_ask_url',
      description: 'Sends its user to a page (a URL ask), and answers what it got.',
      ...shape({}),
      execute: (_args, ctx) =>
        ctx.ask({ message: 'Finish on the page.', url: 'https://door-suite.example/finish' }),
    }),
    defineTool({
      name: 'door_ignore_signal',
      description: 'Never finishes and ignores its signal; its timeout settles it.',
      ...shape({}),
      timeoutMs: doorSuiteTimeoutMs,
      execute: () => new Promise(() => {}),
    }),
    defineTool({
      name: 'door_teardown',
      description: 'Registers a cleanup for `scope` that counts under `key`.',
      ...shape({ key: 'string', scope: 'string' }),
      execute: (args, ctx) => {
        const entry = probe(arg(args, 'key'));
        try {
          const scope = arg<TeardownScope>(args, 'scope');
          ctx.onTeardown(() => void entry.teardowns++, { scope });
          return { registered: true };
        } catch (error) {
          return { registered: false, refusal: error instanceof Error ? error.message : String(error) };
        }
      },
    }),
    defineTool({
      name: 'door_probe',
      description: 'Tells what the other tools recorded under `key`.',
      ...shape({ key: 'string' }),
      execute: (args) => ({ ...probe(arg(args, 'key')) }),
    }),
    defineTool({
      name: 'door_context',
      description: 'Tells which facts its context holds.',
      ...shape({}),
      execute: (_args, ctx) => ({
        runId: ctx.runId ?? null,
        dispatch: ctx.tools !== undefined,
        teardownScopes: [...ctx.teardownScopes],
        hasArtifacts: ctx.hasArtifacts,
        hasCredentials: ctx.hasCredentials,
      }),
    }),
    defineTool({
      name: 'door_parent',
      description: 'Calls door_echo as a child call and returns its result.',
      ...shape({ text: 'string' }),
      execute: async (args, ctx) => {
        if (!ctx.tools) return { child: null };
        return { child: await ctx.tools.call({ tool: 'door_echo', args: { text: arg(args, 'text') } }) };
      },
    }),
    defineTool({
      name: 'door_artifact',
      description: 'Saves the text as an artifact and returns its ref.',
      ...shape({ text: 'string' }),
      effect: 'write',
      execute: async (args, ctx) => {
        const meta = await ctx.artifacts.put({ kind: 'door-suite', data: arg<string>(args, 'text') });
        return { ref: meta.ref };
      },
    }),
    defineTool({
      name: 'door_credential',
      description:
        'Asks for the suite credential, reports it carelessly (progress, log, a custom event) and tells whether it matched, never its value.',
      ...shape({}),
      execute: async (_args, ctx) => {
        if (!ctx.hasCredentials) return { hasCredentials: false, matches: false };
        const credential = await ctx.credentials.get({ credential: doorSuiteCredential.name });
        // A careless tool: the runtime redacts the value from each report, at every door.
        ctx.progress({ message: `using ${credential.value}` });
        ctx.log('info', `token ${credential.value}`, { token: credential.value });
        ctx.emit('token', { token: credential.value });
        return { hasCredentials: true, matches: credential.value === doorSuiteCredential.value };
      },
    }),
  ];
}
