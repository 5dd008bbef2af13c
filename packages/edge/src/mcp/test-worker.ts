// A Worker for the MCP interop tests only: the MCP door mounted on a hono app, serving test tools.

import type { McpServer } from '@modelcontextprotocol/server';
import { completable } from '@modelcontextprotocol/server';
import { createRuntime, defineTool, ToolctxError } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { Hono } from 'hono';
import { z } from 'zod';
import { createRunHost, IdentityStateObject } from '../durable-objects/index.js';
import { connectCalendar, scheduleMeeting } from '../example/index.js';
import { createKvR2ArtifactStore, createToolServer, durableObjectRuns } from '../index.js';
import { createMcpSession } from './mcp-session.js';
import { mountMcp } from './mount-mcp.js';

export { StreamsMcpSession } from './streams-test-session.js';
/** Counts the sessions of /mcp-capped's identities. */
export class TestIdentityState extends IdentityStateObject {}

/** Calls whose tool saw its signal fire, in this session object's isolate. */
const aborted = new Set<string>();
const started = new Set<string>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  defineTool({
    name: 'add',
    title: 'Add two numbers',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  }),
  defineTool({
    name: 'steps',
    description:
      'Reports `count` steps of progress, `ms` apart; with `log`, also logs each step at debug and the end at notice.',
    inputSchema: z.object({ count: z.number(), ms: z.number(), log: z.boolean().optional() }),
    effect: 'write',
    execute: async ({ count, ms, log }, ctx) => {
      for (let done = 1; done <= count; done++) {
        await sleep(ms);
        if (log) ctx.log('debug', `step ${done}`);
        ctx.progress({ message: `step ${done} of ${count}`, done, total: count });
      }
      if (log) ctx.log('notice', 'all steps done', { count });
      return `${count} steps done`;
    },
  }),
  defineTool({
    name: 'wait_for_abort',
    description: 'Runs until its signal fires.',
    inputSchema: z.object({ id: z.string() }),
    effect: 'send',
    execute: ({ id }, ctx) =>
      new Promise((_resolve, reject) => {
        started.add(id);
        ctx.progress({ message: 'waiting' });
        ctx.signal.addEventListener('abort', () => {
          aborted.add(id);
          reject(ctx.signal.reason);
        });
      }),
  }),
  defineTool({
    name: 'whoami',
    description: 'Tells which identity the call runs with.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => ({ identity: ctx.identity ?? null, hasRunId: ctx.runId !== undefined }),
  }),
  defineTool({
    name: 'call_state',
    description: 'Tells whether the call with this id started and whether its signal fired.',
    inputSchema: z.object({ id: z.string() }),
    execute: ({ id }) => ({ started: started.has(id), aborted: aborted.has(id) }),
  }),
];

const testRuntimeFor = () => createRuntime({ tools });

export class TestMcpSession extends createMcpSession(testRuntimeFor) {
  // What the SDK offers beyond tools, added through the hook: a prompt whose argument completes.
  protected override configureServer(server: McpServer) {
    server.registerPrompt(
      'greet',
      {
        description: 'Greets someone by name.',
        argsSchema: {
          name: completable(z.string(), (value) =>
            ['Ada', 'Alan', 'Grace'].filter((n) => n.startsWith(value)),
          ),
        },
      },
      ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }),
    );
  }
}

/** Tools that save artifacts, for the sessions that serve artifacts as resources. */
const artifactTools = [
  defineTool({
    name: 'save_note',
    description: 'Saves text as an artifact, with a media type if given, or that many bytes of 0x2a.',
    inputSchema: z.object({
      text: z.string().optional(),
      bytes: z.number().optional(),
      mediaType: z.string().optional(),
    }),
    effect: 'write',
    execute: async ({ text, bytes, mediaType }, ctx) => {
      const data = bytes === undefined ? (text ?? '') : new Uint8Array(bytes).fill(0x2a);
      return { ref: (await ctx.artifacts.put({ kind: 'note', data, mediaType, label: 'note' })).ref };
    },
  }),
  defineTool({
    name: 'delete_note',
    description: 'Deletes an artifact of the caller.',
    inputSchema: z.object({ ref: z.string() }),
    effect: 'write',
    execute: async ({ ref }, ctx) => ({ deleted: await ctx.artifacts.delete(ref) }),
  }),
];

/** Artifacts in KV and R2, served as MCP resources next to a resource of the subclass's own. */
export class ArtifactMcpSession extends createMcpSession<Env>((env) =>
  createRuntime({
    tools: artifactTools,
    artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
  }),
) {
  protected override serveOptions() {
    return { artifactResources: { maxReadBytes: 1024 } };
  }

  protected override configureServer(server: McpServer) {
    server.registerResource('readme', 'test://readme', { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Notes are artifacts.' }],
    }));
  }
}

/** Notes `delete_note` deleted, in this session object's isolate: a tool that ran is seen here. */
const deleted: string[] = [];

// A session whose tool needs a person's approval: a client that declared elicitation is asked on
// the call's own stream; any other gets approval-pending (the port leaves every call pending).
export class ApprovalMcpSession extends createMcpSession(() => {
  const tools = [
    defineTool({
      name: 'delete_note',
      title: 'Delete a note',
      description: 'Deletes a note.',
      inputSchema: z.object({ note: z.string() }),
      effect: 'write',
      needsApproval: true,
      timeoutMs: 5_000,
      execute: ({ note }) => {
        deleted.push(note);
        return `deleted ${note}`;
      },
    }),
    defineTool({
      name: 'deleted_notes',
      description: 'Lists the notes delete_note deleted.',
      inputSchema: z.object({}),
      execute: () => ({ deleted }),
    }),
  ];
  return createRuntime({ tools, approval: createMemoryApprovalPort() });
}) {}

/** What each `remember_ask` call's ask gave its tool, by the call's `id`, in this isolate. */
const askOutcomes = new Map<string, unknown>();

// A session whose tools ask their user (`ctx.ask`): the example Worker's `schedule_meeting` (a
// form) and `connect_calendar` (a page), and `remember_ask`, whose ask's outcome `ask_outcome`
// tells (the answer, or the kind and message of what the ask threw).
export class AskMcpSession extends createMcpSession(() => {
  const tools = [
    scheduleMeeting,
    connectCalendar,
    defineTool({
      name: 'remember_ask',
      description: 'Asks for a day and a note, and remembers what the ask gave it under `id`.',
      inputSchema: z.object({ id: z.string() }),
      async execute({ id }, ctx) {
        askOutcomes.set(id, 'asking');
        try {
          const answer = await ctx.ask({
            message: 'Which day, and any note?',
            schema: {
              type: 'object',
              properties: {
                day: { type: 'string', enum: ['Monday', 'Friday'] },
                note: { type: 'string', maxLength: 50 },
              },
              required: ['day'],
            },
          });
          askOutcomes.set(id, { answer });
          return { answer };
        } catch (thrown) {
          const info = thrown instanceof ToolctxError ? thrown.info : { kind: 'foreign', message: '' };
          askOutcomes.set(id, { threw: info.kind, message: info.message });
          throw thrown;
        }
      },
    }),
    defineTool({
      name: 'ask_outcome',
      description: 'Tells what `remember_ask` with this id got from its ask.',
      inputSchema: z.object({ id: z.string() }),
      execute: ({ id }) => ({ outcome: askOutcomes.get(id) ?? null }),
    }),
  ];
  return createRuntime({ tools });
}) {}

// One runtimeFor for the HTTP door, its run host and an MCP session class, as a Worker gives them
// (src/mcp/shared-runtime.test.ts): `read_mail` raises the conversation's taint, `peek` reports it.
const sharedTools = [
  defineTool({
    name: 'read_mail',
    description: 'Reads private mail.',
    inputSchema: z.object({}),
    reads: 'private',
    execute: () => 'mail',
  }),
  defineTool({
    name: 'peek',
    description: 'Reports the taint its call sees.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => ({ ...ctx.taint }),
  }),
];
/** How many runtimes `sharedRuntimeFor` made in this isolate. */
let sharedMade = 0;
const sharedRuntimeFor = (_env: Env) => {
  sharedMade++;
  return createRuntime({ tools: sharedTools });
};
export class SharedMcpSession extends createMcpSession<Env>(sharedRuntimeFor) {}
export class SharedRunHost extends createRunHost<Env>(sharedRuntimeFor) {}

// MCP tasks in TaskRunHost objects, one run per task (test/worker/mcp-tasks.test.ts): a tool that
// waits (a task whoever declares the extension), one that asks, one that needs approval, one
// that waits but is a task only once it outlasts the task window (`optional`), and one that saves
// an artifact in KV and R2.
const taskTools = [
  defineTool({
    name: 'task_report',
    description: 'Saves a report as an artifact, waits `ms`, then answers; a task at once.',
    inputSchema: z.object({ ms: z.number() }),
    taskSupport: 'required',
    execute: async ({ ms }, ctx) => {
      const data = '# Findings';
      const { ref } = await ctx.artifacts.put({
        kind: 'report',
        data,
        mediaType: 'text/markdown',
        label: 'report.md',
      });
      await new Promise((resolve) => setTimeout(resolve, ms));
      return `saved ${ref}`;
    },
  }),
  defineTool({
    name: 'task_soon',
    description: 'Waits `ms`, then answers; a task only if that outlasts the task window.',
    inputSchema: z.object({ ms: z.number() }),
    taskSupport: 'optional',
    execute: async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return `waited ${ms} ms`;
    },
  }),
  defineTool({
    name: 'task_wait',
    description: 'Waits `ms`, then answers; a task at once.',
    inputSchema: z.object({ ms: z.number() }),
    taskSupport: 'required',
    execute: async ({ ms }, ctx) => {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(ctx.signal.reason);
          },
          { once: true },
        );
      });
      return `waited ${ms} ms`;
    },
  }),
  defineTool({
    name: 'task_ask',
    description: 'Asks for a colour; a task at once. Safe to run again (a restart does).',
    inputSchema: z.object({}),
    taskSupport: 'required',
    idempotent: true,
    execute: async (_args, ctx) => {
      const answer = await ctx.ask({
        key: 'colour',
        message: 'Which colour?',
        schema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
      });
      return answer.action === 'accept' ? `colour ${answer.values.colour}` : answer.action;
    },
  }),
  defineTool({
    name: 'task_publish',
    title: 'Publish a note',
    description: 'Publishes a note, once a person approves it; a task at once.',
    inputSchema: z.object({ text: z.string() }),
    taskSupport: 'required',
    effect: 'send',
    needsApproval: true,
    execute: async ({ text }) => `published ${text}`,
  }),
];
const taskRuntimeFor = (env: Env) =>
  createRuntime({
    tools: taskTools,
    approval: createMemoryApprovalPort(),
    artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
  });
export class TaskRunHost extends createRunHost<Env>(taskRuntimeFor) {}

type Env = {
  TASK_RUNS: DurableObjectNamespace<TaskRunHost>;
  SHARED_MCP: DurableObjectNamespace<SharedMcpSession>;
  SHARED_RUNS: DurableObjectNamespace<SharedRunHost>;
  MCP_SESSIONS: DurableObjectNamespace<TestMcpSession>;
  ARTIFACT_SESSIONS: DurableObjectNamespace<ArtifactMcpSession>;
  ARTIFACT_META: KVNamespace;
  ARTIFACTS: R2Bucket;
  MCP_APPROVALS: DurableObjectNamespace<ApprovalMcpSession>;
  MCP_ASKS: DurableObjectNamespace<AskMcpSession>;
  MCP_STREAM_SESSIONS: DurableObjectNamespace;
  MCP_TOKEN?: string;
  IDENTITY_STATE: DurableObjectNamespace<TestIdentityState>;
  MCP_TOKEN_UNSET?: string;
};

const app = new Hono<{ Bindings: Env }>();
mountMcp(app, { binding: 'MCP_SESSIONS' });
mountMcp(app, { binding: 'MCP_APPROVALS', path: '/mcp-approve' });
mountMcp(app, { binding: 'MCP_ASKS', path: '/mcp-ask' });
// The same door behind authentication: a bearer token `principal` or `principal@tenant` (tenant
// `acme` by default), and an optional `x-conversation` header for the conversation.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-auth',
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)(?:@(\w+))?$/);
    if (!token?.[1]) return null;
    const conversationId = request.headers.get('x-conversation');
    return { tenant: token[2] ?? 'acme', principal: token[1], ...(conversationId ? { conversationId } : {}) };
  },
});

// Authentication from the Worker's env, as a deployed Worker keeps its secrets: `Bearer <MCP_TOKEN>`
// is let in; at /mcp-env-unset the var it reads is not set, which it says in its refusal.
const fromEnv = (name: 'MCP_TOKEN' | 'MCP_TOKEN_UNSET') => (request: Request, env: Env) => {
  const token = env[name];
  if (!token) return { refused: `${name} is not set for this Worker.` };
  return request.headers.get('authorization') === `Bearer ${token}`
    ? { tenant: 'acme', principal: 'env' }
    : null;
};
mountMcp(app, { binding: 'MCP_SESSIONS', path: '/mcp-env', authenticate: fromEnv('MCP_TOKEN') });
mountMcp(app, { binding: 'MCP_SESSIONS', path: '/mcp-env-unset', authenticate: fromEnv('MCP_TOKEN_UNSET') });

// At most two sessions per identity (`Bearer <principal>`), counted by IDENTITY_STATE.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-capped',
  sessionLimit: { binding: 'IDENTITY_STATE', maxSessionsPerIdentity: 2 },
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
    return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
  },
});
app.get('/test/session-slots', async (c) => {
  const principal = c.req.query('principal') ?? '';
  const stub = c.env.IDENTITY_STATE.get(c.env.IDENTITY_STATE.idFromName(JSON.stringify(['acme', principal])));
  const taken = await stub.acquire('probe', 1_000, 'mcp-session');
  await stub.release('probe', 'mcp-session');
  return c.json({ live: taken.ok ? taken.value.live - 1 : -1 });
});

// At most two calls in flight per identity (`Bearer <principal>`), across its sessions, counted
// by IDENTITY_STATE; `/test/call-slots` tells how many an identity holds.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-calls-capped',
  callLimit: { binding: 'IDENTITY_STATE', maxCallsPerIdentity: 2 },
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
    return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
  },
});
// MCP 2026-07-28 beside 2025 sessions (src/mcp/modern.test.ts): a request whose _meta names the
// revision is answered in the Worker with TestMcpSession's tools; at most one call in flight per
// identity, 2025 and 2026 calls counted together.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-2026',
  runtimeFor: testRuntimeFor,
  callLimit: { binding: 'IDENTITY_STATE', maxCallsPerIdentity: 1 },
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
    return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
  },
});
// Two handlers of one deployment, as two isolates would be (src/mcp/modern.test.ts): one key signs
// their rounds, and IDENTITY_STATE remembers each round's state used, whichever one saw it.
const roundsRuntimeFor = () =>
  createRuntime({
    tools: [
      defineTool({
        name: 'ask_name',
        description: 'Asks for a name and greets it.',
        inputSchema: z.object({}),
        execute: async (_args, ctx) => {
          const answer = await ctx.ask({
            key: 'who',
            message: 'What is your name?',
            schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          });
          return answer.action === 'accept' ? `Hello, ${answer.values.name}!` : 'Hello!';
        },
      }),
    ],
  });
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-tasks',
  runtimeFor: taskRuntimeFor,
  tasks: (env: Env) => durableObjectRuns(env.TASK_RUNS),
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
    return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
  },
});
for (const path of ['/mcp-rounds-a', '/mcp-rounds-b']) {
  mountMcp(app, {
    binding: 'MCP_SESSIONS',
    path,
    runtimeFor: roundsRuntimeFor,
    requestStateKey: () => 'a-test-key-of-at-least-thirty-two-bytes',
    roundsBinding: 'IDENTITY_STATE',
    authenticate: (request) => {
      const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
      return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
    },
  });
}
app.get('/test/call-slots', async (c) => {
  const principal = c.req.query('principal') ?? '';
  const stub = c.env.IDENTITY_STATE.get(c.env.IDENTITY_STATE.idFromName(JSON.stringify(['acme', principal])));
  const taken = await stub.acquire('probe', 1_000, 'call');
  await stub.release('probe', 'call');
  return c.json({ live: taken.ok ? taken.value.live - 1 : -1 });
});

// Sessions whose artifacts are resources: behind the same authentication, and open (anonymous).
mountMcp(app, {
  binding: 'ARTIFACT_SESSIONS',
  path: '/mcp-artifacts',
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
    return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
  },
});
mountMcp(app, { binding: 'ARTIFACT_SESSIONS', path: '/mcp-artifacts-open' });
// The HTTP door over the same KV and R2, for the headers artifacts are served with
// (test/worker/artifact-headers.test.ts): `save_page` saves text under any media type and label.
const savePage = defineTool({
  name: 'save_page',
  description: 'Saves text as an artifact under the media type and label given.',
  inputSchema: z.object({ text: z.string(), mediaType: z.string(), label: z.string().optional() }),
  effect: 'write',
  execute: async ({ text, mediaType, label }, ctx) => ({
    ref: (await ctx.artifacts.put({ kind: 'page', data: text, mediaType, label })).ref,
  }),
});
app.route(
  '/http-artifacts',
  createToolServer<Env>({
    runtimeFor: (env) =>
      createRuntime({
        tools: [savePage],
        artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
      }),
    authenticate: (request) => {
      const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
      return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
    },
  }),
);
// The HTTP door and the MCP door over `sharedRuntimeFor`, behind `Bearer <principal>` of tenant acme.
const bearer = (request: Request) => {
  const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/);
  return token?.[1] ? { tenant: 'acme', principal: token[1] } : null;
};
mountMcp(app, { binding: 'SHARED_MCP', path: '/shared/mcp', authenticate: bearer });
app.get('/shared/runtimes', (c) => c.json({ made: sharedMade }));
app.route(
  '/shared/http',
  createToolServer<Env>({
    runtimeFor: sharedRuntimeFor,
    runs: (env) => durableObjectRuns(env.SHARED_RUNS),
    authenticate: bearer,
  }),
);
// The stream tests' session (streams-test-session.ts).
mountMcp(app, { binding: 'MCP_STREAM_SESSIONS', path: '/mcp-streams' });

// The door as a deployed Worker configures it: its own host names and origins, and a 401 that
// names the protected-resource metadata. Only `Bearer ok` is let in.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-deployed',
  allowedHosts: ['tools.example.com'],
  allowedOrigins: ['https://app.example.com'],
  resourceMetadataUrl: 'https://tools.example.com/.well-known/oauth-protected-resource/mcp-deployed',
  authenticate: (request) =>
    request.headers.get('authorization') === 'Bearer ok' ? { tenant: 'acme', principal: 'ok' } : null,
});

/**
 * Session object stubs the Worker asked the namespace for, by the request's `x-test-tag`: getting
 * a stub is how a Worker reaches (and so creates) a Durable Object, so a count of 0 proves that
 * requests with that tag created none.
 */
const stubsByTag = new Map<string, number>();
app.get('/test/session-stubs', (c) => c.json({ stubs: stubsByTag.get(c.req.query('tag') ?? '') ?? 0 }));

function counted(sessions: Env['MCP_SESSIONS'], tag: string | null): Env['MCP_SESSIONS'] {
  return new Proxy(sessions, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (tag && (key === 'get' || key === 'getByName'))
          stubsByTag.set(tag, (stubsByTag.get(tag) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
}

export default {
  fetch: (request, env, ctx) =>
    // The isolate's own env object for /shared: runtimeFor's runtime is kept per env object.
    new URL(request.url).pathname.startsWith('/shared/')
      ? app.fetch(request, env, ctx)
      : app.fetch(
          request,
          { ...env, MCP_SESSIONS: counted(env.MCP_SESSIONS, request.headers.get('x-test-tag')) },
          ctx,
        ),
} satisfies ExportedHandler<Env>;
