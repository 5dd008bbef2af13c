import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';
import { artifactScope } from './run-facts.js';

const probe = defineTool({
  name: 'probe',
  description: 'Reports what its context holds.',
  inputSchema: z.object({}),
  execute: (_args, ctx) => {
    ctx.progress({ message: 'looking' });
    return {
      hasRunId: 'runId' in ctx && ctx.runId !== undefined,
      hasTools: ctx.tools !== undefined,
      tenant: ctx.identity?.tenant,
    };
  },
});

describe('runtime.callOnce, for doors without runs', () => {
  it('calls with no invented run id and records no run events', async () => {
    const events: ToolEvent[] = [];
    const runtime = createRuntime({ tools: [probe] }).withDoor({
      name: 'test-door',
      teardownScopes: ['call'],
      runIds: false,
      dispatch: false,
    });
    const result = await runtime.callOnce({
      tool: 'probe',
      args: {},
      identity: { tenant: 'acme' },
      onEvent: (event) => void events.push(event),
    });
    expect(result).toMatchObject({ ok: true, value: { hasRunId: false, hasTools: false, tenant: 'acme' } });
    expect(events.map((event) => event.type)).toEqual(['tool.started', 'tool.progress', 'tool.finished']);
    expect(events.every((event) => !('runId' in event))).toBe(true);
    expect(runtime.door.name).toBe('test-door');
  });

  it('uses the run id a door names', () => {
    const run = createRuntime({ tools: [probe] }).startRun({ runId: 'run_named_by_door' });
    expect(run.runId).toBe('run_named_by_door');
  });
});

describe('startRun options for doors', () => {
  it('delivers run.started to onEvent, and lists the tools the phase allows', () => {
    const seen: string[] = [];
    const runtime = createRuntime({ tools: [probe] });
    const run = runtime.startRun({ phase: 'plan', onEvent: (event) => void seen.push(event.type) });
    expect(seen).toEqual(['run.started']);
    expect(run.listTools().map((tool) => tool.name)).toEqual(['probe']);
  });

  it("keeps an anonymous call's artifacts under the door's anonymousScope, and each other anonymous call's in a scope of its own", async () => {
    const store = createMemoryArtifactStore();
    const save = defineTool({
      name: 'save',
      description: 'Saves a note.',
      inputSchema: z.object({}),
      effect: 'write',
      execute: async (_args, ctx) => (await ctx.artifacts.put({ kind: 'note', data: 'hi' })).ref,
    });
    const runtime = createRuntime({ tools: [save], artifacts: store });
    const shared = artifactScope(undefined, 'mcp:session-1');
    await runtime.callOnce({ tool: 'save', args: {}, anonymousScope: 'mcp:session-1' });
    await runtime.callOnce({ tool: 'save', args: {}, anonymousScope: 'mcp:session-1' });
    expect((await store.list(shared)).artifacts).toHaveLength(2);
    await runtime.callOnce({ tool: 'save', args: {} });
    expect((await store.list(shared)).artifacts).toHaveLength(2);
    // An identified caller's scope is its identity's, whatever the door passes.
    const identity = { tenant: 'acme', principal: 'ana' };
    await runtime.callOnce({ tool: 'save', args: {}, identity, anonymousScope: 'mcp:session-1' });
    expect((await store.list(artifactScope(identity))).artifacts).toHaveLength(1);
    expect((await store.list(shared)).artifacts).toHaveLength(2);
  });
});
