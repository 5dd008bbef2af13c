import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

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
});
