import { createRuntime, type Runtime } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { sharedRuntime } from '../door/shared-runtime.js';
import { exampleTools } from '../example/index.js';
import { authenticate } from '../test-utils/server.js';
import { createToolServer } from './create-tool-server.js';

// createToolServer takes one way to get a runtime, runtimeFor(env), and keeps what it made per
// env object: a plain function is enough, with no cache written by hand.

function counted() {
  const made: Runtime[] = [];
  const runtimeFor = (_env: unknown) => {
    const runtime = createRuntime({ tools: exampleTools, approval: { request: async () => 'pending' } });
    made.push(runtime);
    return runtime;
  };
  return { made, runtimeFor };
}
const asAna = { authorization: 'Bearer ana', 'content-type': 'application/json' };

describe('createToolServer({ runtimeFor })', () => {
  it('calls runtimeFor once per env object, however many requests come with it', async () => {
    const { made, runtimeFor } = counted();
    const app = createToolServer({ runtimeFor, authenticate });
    const env = { name: 'isolate-1' };
    for (let i = 0; i < 3; i++)
      expect((await app.request('/tools', { headers: asAna }, env)).status).toBe(200);
    expect(made).toHaveLength(1);
    await app.request('/tools', { headers: asAna }, { name: 'isolate-2' });
    expect(made).toHaveLength(2);
  });

  it('lets two requests with the same env share the runtime: a run started by one is called by the other', async () => {
    const { made, runtimeFor } = counted();
    const app = createToolServer({ runtimeFor, authenticate });
    const env = {};
    const started = await app.request('/runs', { method: 'POST', headers: asAna, body: '{}' }, env);
    const { runId } = (await started.json()) as { runId: string };
    const called = await app.request(
      `/runs/${runId}/calls`,
      { method: 'POST', headers: asAna, body: JSON.stringify({ tool: 'count_steps', args: { steps: 1 } }) },
      env,
    );
    expect(await called.json()).toMatchObject({ ok: true });
    expect(made).toHaveLength(1);
  });

  it('makes one runtime for requests that bring no env at all', async () => {
    const { made, runtimeFor } = counted();
    const app = createToolServer({ runtimeFor, authenticate });
    await app.request('/tools', { headers: asAna });
    await app.request('/tools', { headers: asAna });
    expect(made).toHaveLength(1);
  });

  it('gives every user of the same runtimeFor the runtime it made for an env, as the run host is given', () => {
    const { made, runtimeFor } = counted();
    const env = {};
    expect(sharedRuntime(runtimeFor, env)).toBe(sharedRuntime(runtimeFor, env));
    expect(made).toHaveLength(1);
  });

  it('refuses options without runtimeFor, naming the fix', () => {
    expect(() => createToolServer({ authenticate } as never)).toThrow(
      'createToolServer needs { runtimeFor: (env) => runtime }; for one runtime made up front, pass () => runtime.',
    );
  });

  it('refuses a runtimeFor that returns no runtime', async () => {
    const app = createToolServer({ runtimeFor: () => ({}) as Runtime, authenticate });
    const response = await app.request('/tools', { headers: asAna }, {});
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ kind: 'internal', exception: 'TypeError' });
    expect(() => sharedRuntime(() => undefined as never, {})).toThrow(/runtimeFor must return a runtime/);
  });
});
