// A Worker for the MCP interop tests only: the MCP door mounted on a hono app, serving test tools.
import { createRuntime, defineTool } from '@toolctx/core';
import { Hono } from 'hono';
import { z } from 'zod';
import { McpSession } from './mcp-session.js';
import { mountMcp } from './mount-mcp.js';

/** Calls whose tool saw its signal fire, in this session object's isolate. */
const aborted = new Set<string>();
const started = new Set<string>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  }),
  defineTool({
    name: 'steps',
    description: 'Reports `count` steps of progress, `ms` apart.',
    input: z.object({ count: z.number(), ms: z.number() }),
    execute: async ({ count, ms }, ctx) => {
      for (let done = 1; done <= count; done++) {
        await sleep(ms);
        ctx.progress({ message: `step ${done} of ${count}`, done, total: count });
      }
      return `${count} steps done`;
    },
  }),
  defineTool({
    name: 'wait_for_abort',
    description: 'Runs until its signal fires.',
    input: z.object({ id: z.string() }),
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
    input: z.object({}),
    execute: (_args, ctx) => ({ identity: ctx.identity ?? null, hasRunId: ctx.runId !== undefined }),
  }),
  defineTool({
    name: 'call_state',
    description: 'Tells whether the call with this id started and whether its signal fired.',
    input: z.object({ id: z.string() }),
    execute: ({ id }) => ({ started: started.has(id), aborted: aborted.has(id) }),
  }),
];

export class TestMcpSession extends McpSession {
  protected createRuntime() {
    return createRuntime({ tools });
  }
}

const app = new Hono<{ Bindings: { MCP_SESSIONS: DurableObjectNamespace<TestMcpSession> } }>();
mountMcp(app, { binding: 'MCP_SESSIONS' });
// The same door behind authentication: a bearer token names the principal.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/mcp-auth',
  authenticate: (request) => {
    const token = request.headers.get('authorization')?.match(/^Bearer (\w+)$/)?.[1];
    return token ? { tenant: 'acme', principal: token } : null;
  },
});

export default app;
