// Test helpers: a door over runs in memory, with the example tools, and requests to it.
import { createRuntime, type Identity } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { exampleTools } from '../example/index.js';
import { createMemoryRunDirectory, createToolServer, type MemoryRunDirectoryOptions } from '../index.js';

// Approvals always wait: the door's POST /approvals/:id decides them.
export const runtime = createRuntime({
  tools: exampleTools,
  artifacts: createMemoryArtifactStore(),
  approval: { request: async () => 'pending' },
});

/** `Bearer ana` is ana, `Bearer bob` is bob; anything else is refused. */
export function authenticate(request: Request): Identity | null {
  const match = /^Bearer (ana|bob)$/.exec(request.headers.get('authorization') ?? '');
  return match ? { tenant: 'acme', principal: match[1] } : null;
}

export function memoryServer(
  options: { maxEvents?: number; maxBodyBytes?: number } & Omit<MemoryRunDirectoryOptions, 'runtime'> = {},
) {
  const { maxBodyBytes, ...directory } = options;
  const runs = createMemoryRunDirectory({ runtime, ...directory });
  const app = createToolServer({ runtimeFor: () => runtime, runs, authenticate, maxBodyBytes });
  const send = (path: string, init: RequestInit & { as?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${init.as ?? 'ana'}`);
    return app.request(path, { ...init, headers });
  };
  const post = (path: string, body: unknown, init: RequestInit & { as?: string } = {}) =>
    send(path, {
      ...init,
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...init.headers },
    });
  const startRun = async (as = 'ana', body: unknown = {}) => {
    const response = await post('/runs', body, { as });
    return ((await response.json()) as { runId: string }).runId;
  };
  return { app, send, post, startRun };
}

/** A call through a run's JSON answer, read whole: its `ToolResult`, or the refusal. */
export async function callJson(
  state: { streamCall: import('../run-host/run-state.js').RunState['streamCall'] },
  caller: Identity,
  call: import('../run-host/types.js').DoorCall,
): Promise<import('../door/door-error.js').Reply<import('@toolctx/core').ToolResult>> {
  const reply = await state.streamCall(caller, call, 'json');
  if (!reply.ok) return reply;
  const text = typeof reply.value === 'string' ? reply.value : await new Response(reply.value).text();
  return { ok: true, value: JSON.parse(text) };
}
