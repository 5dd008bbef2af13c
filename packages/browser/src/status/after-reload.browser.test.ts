// The widget on a remote run after the page reloaded: a new connectRun on the same run, against
// the edge's HTTP door itself (scripts/run-test-server.mjs). The same after a crash of the run's
// host, under `wrangler dev`: test/e2e/reload-after-crash.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectRun } from '../remote/connect-run.js';
import { attachStatus } from './attach-status.js';
import { container, frames, lineTexts } from './test-helpers.js';

const base = `${location.origin}/run-test`;
const patience = { timeout: 15_000, interval: 20 };

async function startRun(): Promise<string> {
  const response = await fetch(`${base}/runs`, { method: 'POST' });
  expect(response.status).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}
const status = async (runId: string, callId: string) =>
  ((await (await fetch(`${base}/runs/${runId}/calls/${callId}`)).json()) as { status: string }).status;

afterEach(() => {
  document.body.replaceChildren();
});

describe('attachStatus after a page reload', () => {
  it("shows each call of the run in its true state: settled ones folded, a waiting one with Approve and Deny, a detached one still running with Cancel; the waiting one's elapsed time counts from its start", async () => {
    const runId = await startRun();
    const before = connectRun(base, runId);
    await before.call({ tool: 'count_words', args: { text: 'one two' }, toolCallId: 'count_1' });
    await before.call({ tool: 'pay', args: { amount: 40 }, toolCallId: 'pay_1' });
    const key = `held-${crypto.randomUUID()}`;
    void before.call({ tool: 'gate', args: { key }, toolCallId: 'gate_1', detached: true });
    await vi.waitFor(async () => expect(await status(runId, 'gate_1')).toBe('working'), patience);

    // The page reloads: a new connection to the same run, and a widget on it.
    const run = connectRun(base, runId);
    const open = await run.openCalls();
    expect(open.map((handle) => [handle.toolCallId, handle.status]).sort()).toEqual([
      ['gate_1', 'working'],
      ['pay_1', 'input_required'],
    ]);
    const waiting = open.find((handle) => handle.toolCallId === 'pay_1')!;
    const element = container();
    // The page's clock reads 65 s after the call started, whenever the page itself loaded.
    attachStatus(element, run, { now: () => waiting.startedAt + 65_500, locale: 'en', expanded: true });
    await vi.waitFor(
      () =>
        expect(lineTexts(element)).toEqual([
          'pay is waiting for approval…',
          `waiting for ${key}`,
          'count_words done',
        ]),
      patience,
    );
    await frames();
    const rows = [...element.querySelectorAll<HTMLElement>('.toolctx-status__line')];
    const waitingRow = rows[0]!;
    expect(waitingRow.querySelector('.toolctx-status__time')?.textContent).toBe('1 min 5 s');
    const actions = (row: HTMLElement) => [...row.querySelectorAll('button')].map((b) => b.textContent);
    expect(actions(waitingRow)).toEqual(['Approve', 'Deny']);
    expect(actions(rows[1]!)).toEqual(['Cancel']);
    // What Approve allows, read from the run (this page never made the call): its arguments.
    await vi.waitFor(
      () => expect(waitingRow.querySelector('.toolctx-status__ask')?.textContent).toBe('pay: amount 40'),
      patience,
    );

    // Approve on the reloaded page decides the approval in the run, and the line settles.
    waitingRow.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!.click();
    await vi.waitFor(
      () => expect(lineTexts(element)).toEqual([`waiting for ${key}`, 'count_words done', 'pay done']),
      patience,
    );
    expect(await run.callStatus('pay_1')).toMatchObject({
      status: 'completed',
      result: { value: { paid: 40 } },
    });
    // Cancel on it ends the detached call the first page made.
    element.querySelector<HTMLButtonElement>('.toolctx-status__action--cancel')!.click();
    await vi.waitFor(async () => expect(await status(runId, 'gate_1')).toBe('cancelled'), patience);
  });
});
