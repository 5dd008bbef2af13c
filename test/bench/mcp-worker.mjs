// The Worker that mcp-door.mjs runs in workerd (issue 39, items 1 and 2). One Worker, so each
// MCP path and its peer share the isolate, the bindings and the load:
// - POST /toolctx: toolctx's MCP door (mountMcp with runtimeFor), answering a 2026-07-28 request.
// - POST /sdk: the same tool registered on the official SDK v2 handler (`createMcpHandler` from
//   @modelcontextprotocol/server, a fresh McpServer per request, as its factory contract asks).
// - POST /agents: the same on Cloudflare's `createMcpHandler` (agents/mcp/server, on SDK v2).
// - POST /tasks: mountMcp with `tasks` (one run-host Durable Object per task), for `tasks/get`.
// - POST /floor-read: the floor of a task poll: parse the JSON-RPC body, one RPC to the task's
//   Durable Object that does one `ctx.storage.kv.get`, answer the record as a JSON-RPC result.
// - POST /floor-read/seed?key=…: writes the record the floor reads, outside the timed requests.

import { DurableObject } from 'cloudflare:workers';
import { McpServer, createMcpHandler as sdkMcpHandler } from '@modelcontextprotocol/server';
import { createRuntime, defineTool } from '@toolctx/core';
import { durableObjectRuns, mountMcp } from '@toolctx/edge';
import { createMcpSession, createRunHost } from '@toolctx/edge/durable-objects';
import { createMcpHandler as agentsMcpHandler } from 'agents/mcp/server';
import { Hono } from 'hono';
import { z } from 'zod';

// The plain tool every side serves: zod-validated arguments, a sum back.
const input = z.object({ a: z.number(), b: z.number() });
const add = ({ a, b }) => ({ sum: a + b });
const addTool = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: input,
  execute: add,
});
const runtime = createRuntime({ tools: [addTool] });
const runtimeFor = () => runtime;

// Task tools: one that waits until cancelled (a task that stays `working`), one that answers at once.
const taskTools = [
  defineTool({
    name: 'task_wait',
    description: 'Waits until cancelled; a task at once.',
    inputSchema: z.object({}),
    taskSupport: 'required',
    execute: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
      ),
  }),
  defineTool({
    name: 'task_add',
    description: 'Adds two numbers; a task at once.',
    inputSchema: input,
    taskSupport: 'required',
    execute: add,
  }),
];
const taskRuntime = createRuntime({ tools: taskTools });

export class BenchMcpSession extends createMcpSession(runtimeFor) {}
export class BenchTaskRunHost extends createRunHost(() => taskRuntime) {}

/** The floor's object: one record, read with one synchronous KV get of its SQLite storage. */
export class BenchFloorRead extends DurableObject {
  read(key) {
    return this.ctx.storage.kv.get(key);
  }
  seed(key, value) {
    this.ctx.storage.kv.put(key, value);
  }
}

/** The SDK side's server, made per request as `createMcpHandler`'s factory contract asks. */
function sdkServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: input }, (args) => {
    const value = add(args);
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  });
  return server;
}

const sdk = sdkMcpHandler(sdkServer, { legacy: 'reject' });
const agents = agentsMcpHandler(sdkServer, { route: '/agents' });

const app = new Hono();
mountMcp(app, { binding: 'MCP_SESSIONS', path: '/toolctx', runtimeFor });
app.post('/sdk', (c) => sdk.fetch(c.req.raw));
app.post('/agents', (c) => agents(c.req.raw, c.env, c.executionCtx));
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  path: '/tasks',
  runtimeFor: () => taskRuntime,
  tasks: (env) => durableObjectRuns(env.TASK_RUNS),
});

const floorOf = (env, key) => env.FLOOR_READ.get(env.FLOOR_READ.idFromName(key));
app.post('/floor-read', async (c) => {
  const body = await c.req.json();
  const taskId = body?.params?.taskId;
  const record = await floorOf(c.env, taskId).read(taskId);
  if (record === undefined) return c.json({ jsonrpc: '2.0', id: body.id, error: { code: -32602 } });
  return c.json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ...record } });
});
app.post('/floor-read/seed', async (c) => {
  const key = c.req.query('key');
  await floorOf(c.env, key).seed(key, await c.req.json());
  return c.body(null, 204);
});

export default app;
