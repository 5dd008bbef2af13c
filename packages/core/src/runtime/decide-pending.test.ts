import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalPort } from '../approval/approval.js';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

function setUp(approval: ApprovalPort = createMemoryApprovalPort()) {
  const ran: unknown[] = [];
  const remove = defineTool({
    name: 'remove',
    description: 'Removes a thing.',
    inputSchema: z.object({ id: z.string() }),
    effect: 'write',
    needsApproval: true,
    execute: (args, ctx) => {
      ran.push({ args, approval: ctx.approval });
      return 'removed';
    },
  });
  return { runtime: createRuntime({ tools: [remove], approval }), ran };
}

describe("callOnce's decidePending", () => {
  it('decides a call the approval port left pending, with a one-use token for that call', async () => {
    const { runtime, ran } = setUp();
    const events: ToolEvent[] = [];
    const asked: string[] = [];
    const decidePending: ApprovalPort = {
      request: async (request) => {
        asked.push(request.toolName);
        return { approved: true, reason: 'ok by me' };
      },
    };
    const args = { id: 'a1' };
    const result = await runtime.callOnce({
      tool: 'remove',
      args,
      decidePending,
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({ ok: true, value: 'removed' });
    expect(asked).toEqual(['remove']);
    expect(ran).toEqual([
      { args, approval: { approvalId: expect.stringMatching(/^apr_/), reason: 'ok by me' } },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'tool.started',
      'approval.requested',
      'approval.decided',
      'tool.finished',
    ]);
  });

  it('is not asked when the approval port decides, and leaves the call pending when it answers pending', async () => {
    const decided = setUp(createMemoryApprovalPort({ decide: () => ({ approved: false }) }));
    let asked = 0;
    const decidePending: ApprovalPort = {
      request: async () => {
        asked++;
        return 'pending';
      },
    };
    const denied = await decided.runtime.callOnce({ tool: 'remove', args: { id: 'a' }, decidePending });
    expect(denied).toMatchObject({ ok: false, error: { kind: 'approval-denied' } });
    expect(asked).toBe(0);
    const { runtime, ran } = setUp();
    const pending = await runtime.callOnce({ tool: 'remove', args: { id: 'b' }, decidePending });
    expect(pending).toMatchObject({ ok: false, error: { kind: 'approval-pending' } });
    expect(asked).toBe(1);
    expect(ran).toEqual([]);
  });

  it('ends a call cancelled while it waits as aborted, whatever the answer, and files nothing', async () => {
    const answers = [{ approved: true }, { approved: false }, 'pending'] as const;
    for (const answer of answers) {
      const { runtime, ran } = setUp();
      const controller = new AbortController();
      const events: ToolEvent[] = [];
      const decidePending: ApprovalPort = {
        request: async () => {
          controller.abort();
          return answer;
        },
      };
      const result = await runtime.callOnce({
        tool: 'remove',
        args: { id: 'c' },
        signal: controller.signal,
        decidePending,
        onEvent: (e) => events.push(e),
      });
      expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
      expect(events.map((e) => e.type)).toEqual(['tool.started', 'approval.requested', 'tool.failed']);
      expect(ran).toEqual([]);
    }
  });
});
