// The HTTP+SSE door on a Node host: the built `@toolctx/edge`, imported as a Node user imports it,
// served by @hono/node-server on loopback with runs in memory, and called over real HTTP.
import { serve } from '@hono/node-server';
import { createRuntime, type Identity, type ToolEvent, type ToolResult } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { readSse } from '@toolctx/core/sse';
import { describeDoor, doorSuiteCredentials, doorSuiteTenant, doorSuiteTools } from '@toolctx/core/testing';
import { createToolServer, httpDoor } from '@toolctx/edge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpDoorClient } from '../door-suite/http-door-client.js';

/** `Bearer ana` is ana and `Bearer bob` is bob, principals of the door suite's tenant. */
function authenticate(request: Request): Identity | null {
  const match = /^Bearer (ana|bob)$/.exec(request.headers.get('authorization') ?? '');
  return match ? { tenant: doorSuiteTenant, principal: match[1] } : null;
}

// No `runs`: the door keeps them in memory, in this process. On Node hono makes an env per
// request, so the runtime is made once here and `runtimeFor` hands back that one.
const runtime = createRuntime({
  tools: doorSuiteTools(),
  credentials: doorSuiteCredentials(),
  artifacts: createMemoryArtifactStore(),
});
const app = createToolServer({ runtimeFor: () => runtime, authenticate });

let origin = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  // Port 0: the system picks a free one, which the listening callback reports.
  const port = await new Promise<number>((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
    close = () => new Promise((done) => server.close(() => done()));
  });
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => close());

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${origin}${path}`, {
    ...init,
    headers: { authorization: 'Bearer ana', 'content-type': 'application/json', ...init.headers },
  });

async function startRun(): Promise<string> {
  const response = await send('/runs', { method: 'POST', body: '{}' });
  expect(response.status).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

describe('the HTTP door served by @hono/node-server', () => {
  it('loads the package entry in Node, while the Durable Object classes stay behind their own subpath', async () => {
    expect(typeof createToolServer).toBe('function');
    await expect(import('@toolctx/edge/durable-objects')).rejects.toThrow(/cloudflare:/);
  });

  it('lists the tools and refuses a caller it cannot authenticate', async () => {
    const listed = (await (await send('/tools')).json()) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('door_echo');
    const anonymous = await fetch(`${origin}/tools`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { kind: string }).kind).toBe('unauthenticated');
  });

  it('starts a run and answers a JSON call with its ToolResult', async () => {
    const runId = await startRun();
    const response = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      body: JSON.stringify({ tool: 'door_echo', args: { text: 'over loopback' } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, value: { echo: 'over loopback' } });
  });

  it('streams an SSE call: its progress events, then the result', async () => {
    const runId = await startRun();
    const response = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      body: JSON.stringify({ tool: 'door_steps', args: { count: 3 } }),
      headers: { accept: 'text/event-stream' },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const progress: unknown[] = [];
    let result: ToolResult | undefined;
    for await (const message of readSse(response.body!)) {
      if (message.event === 'result') result = JSON.parse(message.data) as ToolResult;
      else if (message.event === 'tool.progress') progress.push((JSON.parse(message.data) as ToolEvent).data);
    }
    expect(progress).toHaveLength(3);
    expect(result).toMatchObject({ ok: true, value: { steps: 3 } });
  });

  it('cancels a running call, which then settles as aborted, and ends the run', async () => {
    const runId = await startRun();
    const toolCallId = `call_${crypto.randomUUID()}`;
    const response = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      body: JSON.stringify({ tool: 'door_wait_for_abort', args: { key: toolCallId }, toolCallId }),
      headers: { accept: 'text/event-stream' },
    });
    let result: ToolResult | undefined;
    for await (const message of readSse(response.body!)) {
      if (message.event === 'tool.progress') {
        const cancelled = await send(`/runs/${runId}/calls/${toolCallId}/cancel`, { method: 'POST' });
        expect(await cancelled.json()).toEqual({ callId: toolCallId, cancelled: true });
      }
      if (message.event === 'result') result = JSON.parse(message.data) as ToolResult;
    }
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    const ended = await send(`/runs/${runId}`, { method: 'DELETE' });
    expect(await ended.json()).toMatchObject({ runId, ended: true });
  });
});

describeDoor('HTTP+SSE on Node (@hono/node-server), runs in memory', {
  supplies: { ...httpDoor, artifacts: true, credentials: true, events: true, handles: true, asks: true },
  connect: (_tools, { caller }) => httpDoorClient(fetch, caller, { origin }),
});
