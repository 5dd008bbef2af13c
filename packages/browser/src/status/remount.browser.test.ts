// A widget attached again to a run it was not watching (a React route change, a conditional
// render): the run's own open calls put each line where it is — started when it started, waiting
// with its Approve and Deny, or its ask's form — in process and through the Web Worker door. A
// remote run replays its events as well: after-reload.browser.test.ts.
import { createRuntime, defineTool, type Run } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { connectWorker, type WorkerConnection } from '../worker-door/connect-worker.js';
import { attachStatus } from './attach-status.js';
import { container, frames, lineTexts } from './test-helpers.js';

const patience = { timeout: 10_000, interval: 20 };
const connections: WorkerConnection[] = [];
afterEach(() => {
  for (const connection of connections.splice(0)) connection.terminate();
  document.body.replaceChildren();
});

function localRun(): Run {
  const tools = [
    defineTool({
      name: 'pay',
      description: 'Pays, after approval.',
      inputSchema: z.object({ amount: z.number() }),
      effect: 'write',
      needsApproval: true,
      execute: ({ amount }) => ({ paid: amount }),
    }),
    defineTool({
      name: 'plan',
      description: 'Asks which day.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        ctx.ask({
          message: 'Which day?',
          schema: { type: 'object', properties: { day: { type: 'string', enum: ['Mon', 'Tue'] } } },
        }),
    }),
    defineTool({
      name: 'wait',
      description: 'Runs until cancelled.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', reject)),
    }),
  ];
  return createRuntime({ tools, approval: createMemoryApprovalPort() }).startRun();
}

const buttons = (element: HTMLElement) =>
  [...element.querySelectorAll('.toolctx-status__line button')].map((b) => b.textContent);

describe('a widget attached again to a run', () => {
  it('in process: shows a waiting approval with Approve and Deny, an open ask with its form, a running call with its real elapsed time', async () => {
    const run = localRun();
    const first = container();
    const handle = attachStatus(first, run, { locale: 'en' });
    expect(await run.call({ tool: 'pay', args: { amount: 40 }, toolCallId: 'pay_1' })).toMatchObject({
      error: { kind: 'approval-pending' },
    });
    const planned = run.call({ tool: 'plan', args: {}, toolCallId: 'plan_1' });
    void run.call({ tool: 'wait', args: {}, toolCallId: 'wait_1' });
    await vi.waitFor(() => expect(run.asks()).toHaveLength(1), patience);
    // The route changes: the widget goes, and a new one is attached to the same run.
    handle.detach();
    first.remove();
    const started = run.callStatus('wait_1')!.startedAt;
    const again = container();
    attachStatus(again, run, { locale: 'en', now: () => started + 65_500 });
    await vi.waitFor(
      () =>
        expect(lineTexts(again).sort()).toEqual([
          'pay is waiting for approval…',
          'plan asks: Which day?',
          'wait started…',
        ]),
      patience,
    );
    await frames();
    expect(buttons(again)).toEqual(
      expect.arrayContaining(['Approve', 'Deny', 'Submit', 'Decline', 'Cancel']),
    );
    const waitRow = [...again.querySelectorAll<HTMLElement>('.toolctx-status__line')].find((row) =>
      row.textContent?.includes('wait started…'),
    )!;
    expect(waitRow.querySelector('.toolctx-status__time')?.textContent).toBe('1 min 5 s');
    // Its controls act on the run: approved, the call runs; the form answers the ask.
    again.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!.click();
    await vi.waitFor(() => expect(run.callStatus('pay_1')?.status).toBe('completed'), patience);
    again.querySelector<HTMLSelectElement>('form select')!.value = 'Tue';
    again.querySelector<HTMLFormElement>('form')!.requestSubmit();
    expect(await planned).toMatchObject({ ok: true, value: { action: 'accept', values: { day: 'Tue' } } });
    await run.end();
  });

  it('through the Web Worker door: a waiting approval comes back with Approve and Deny', async () => {
    const connection = connectWorker(
      new Worker(new URL('../worker-door/fixture.worker.ts', import.meta.url), { type: 'module' }),
    );
    connections.push(connection);
    const run = connection.startRun();
    expect(await run.call({ tool: 'pay', args: { amount: 7 }, toolCallId: 'pay_w' })).toMatchObject({
      error: { kind: 'approval-pending' },
    });
    const element = container();
    attachStatus(element, run, { locale: 'en' });
    await vi.waitFor(() => expect(lineTexts(element)).toEqual(['pay is waiting for approval…']), patience);
    await frames();
    expect(buttons(element)).toEqual(['Approve', 'Deny']);
    // Held until the arguments read from the Worker run are shown.
    const approve = element.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!;
    await vi.waitFor(() => expect(approve.hasAttribute('aria-disabled')).toBe(false), patience);
    approve.click();
    await vi.waitFor(async () => expect((await run.callStatus('pay_w'))?.status).toBe('completed'), patience);
  });
});
