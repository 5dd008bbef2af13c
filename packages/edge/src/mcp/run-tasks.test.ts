import { createRuntime, defineTool } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryRunDirectory } from '../run-host/index.js';
import { runTaskHost } from './run-tasks.js';

// MCP tasks in runs, on the in-memory run directory (the Durable Object one answers the same
// verbs over RPC): a task waiting for approval asks in the tool's words, with its arguments.
const publish = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a note for everyone to read.',
  inputSchema: z.object({ text: z.string() }),
  effect: 'send',
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});
const runtime = createRuntime({ tools: [publish], approval: createMemoryApprovalPort() });
const ana = { tenant: 'acme', principal: 'ana' };
const owner = JSON.stringify(ana);

describe('runTaskHost', () => {
  it('a task waiting for approval asks with the arguments it would run with, on every tasks/get', async () => {
    const tasks = runTaskHost(createMemoryRunDirectory({ runtime }), runtime);
    const args = { text: 'The launch is on Tuesday' };
    const started = await tasks.start({
      owner,
      identity: ana,
      phase: 'act',
      tool: 'publish_note',
      args,
      answers: {},
      waitMs: 50,
    });
    expect(started.status).toBe('input_required');
    const got = await tasks.get(owner, started.taskId);
    expect(got?.status).toBe('input_required');
    const [ask] = got?.asks ?? [];
    expect(ask?.key).toBe('toolctx.approval');
    expect(ask?.message).toContain('"Publish a note" (publish_note)');
    expect(ask?.message).toContain('With:\n- text: The launch is on Tuesday');
    expect(ask?.message).toBe(started.asks?.[0]?.message);
  });

  it("another identity learns nothing of a task's approval", async () => {
    const runs = createMemoryRunDirectory({ runtime });
    const tasks = runTaskHost(runs, runtime);
    const started = await tasks.start({
      owner,
      identity: ana,
      phase: 'act',
      tool: 'publish_note',
      args: { text: 'secret' },
      answers: {},
      waitMs: 50,
    });
    const approvalId = (await tasks.get(owner, started.taskId))?.asks?.[0]?.askId ?? '';
    expect(approvalId).not.toBe('');
    const bob = { tenant: 'acme', principal: 'bob' };
    expect(await tasks.get(JSON.stringify(bob), started.taskId)).toBeUndefined();
    const asked = await runs.get(started.taskId).pendingApproval(bob, approvalId);
    expect(asked).toMatchObject({ ok: false, status: 404 });
    expect(JSON.stringify(asked)).not.toContain('secret');
    expect(await runs.get(started.taskId).pendingApproval(ana, approvalId)).toMatchObject({
      ok: true,
      value: { approvalId, tool: 'publish_note', args: { text: 'secret' } },
    });
    expect(await runs.get(started.taskId).pendingApproval(ana, 'appr_nope')).toMatchObject({
      ok: false,
      status: 404,
    });
  });
});
