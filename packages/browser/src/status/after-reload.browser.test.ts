/// <reference types="@vitest/browser-playwright" />
// The widget on a remote run after the page reloaded: a new connectRun on the same run, against
// the stand-in for the edge's run routes (scripts/run-test-server.mjs), whose runs are core's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { connectRun } from '../remote/connect-run.js';
import { attachStatus } from './attach-status.js';
import { container, frames, lineTexts } from './test-helpers.js';

const base = `${location.origin}/run-test`;
const patience = { timeout: 15_000, interval: 20 };

async function startRun(): Promise<string> {
  const response = await fetch(`${base}/runs`, { method: 'POST' });
  return ((await response.json()) as { runId: string }).runId;
}
const status = async (runId: string, callId: string) =>
  ((await (await fetch(`${base}/runs/${runId}/calls/${callId}`)).json()) as { status: string }).status;

afterEach(() => {
  document.body.replaceChildren();
});

describe('attachStatus after a page reload', () => {
  it("shows each call of the run in its true state: settled ones folded, a waiting one with Approve and Deny, one cut off by a restart failed as interrupted; the waiting one's elapsed time counts from its start", async () => {
    const runId = await startRun();
    const before = connectRun(base, runId);
    await before.call({ tool: 'count_words', args: { text: 'one two' }, toolCallId: 'count_1' });
    await before.call({ tool: 'pay', args: { amount: 40 }, toolCallId: 'pay_1' });
    const key = `cut-${crypto.randomUUID()}`;
    const cut = before.call({ tool: 'gate', args: { key }, toolCallId: 'gate_1', detached: true });
    await vi.waitFor(async () => expect(await status(runId, 'gate_1')).toBe('working'), patience);
    await fetch(`${base}/runs/${runId}/restart`, { method: 'POST' });
    expect(await cut).toMatchObject({ ok: false, error: { kind: 'interrupted' } });

    // The page reloads: a new connection to the same run, and a widget on it.
    const run = connectRun(base, runId);
    const [waiting] = await run.openCalls();
    expect(waiting).toMatchObject({ toolCallId: 'pay_1', status: 'input_required' });
    await page.viewport(800, 600);
    const element = container();
    element.style.cssText = 'inline-size:32rem;padding:1rem;font:15px system-ui,sans-serif';
    // The page's clock reads 65 s after the call started, whenever the page itself loaded.
    attachStatus(element, run, { now: () => waiting!.startedAt + 65_500, locale: 'en', expanded: true });
    await vi.waitFor(
      () =>
        expect(lineTexts(element)).toEqual([
          'pay is waiting for approval…',
          'count_words done',
          'gate was cut off by a restart',
        ]),
      patience,
    );
    await frames();
    const rows = [...element.querySelectorAll<HTMLElement>('.toolctx-status__line')];
    const waitingRow = rows[0]!;
    expect(waitingRow.querySelector('.toolctx-status__time')?.textContent).toBe('1 min 5 s');
    const actions = [...waitingRow.querySelectorAll('button')].map((button) => button.textContent);
    expect(actions).toEqual(['Approve', 'Deny']);
    expect(element.querySelectorAll('.toolctx-status__action--cancel')).toHaveLength(0);
    expect(rows[2]!.dataset.state).toBe('failed');
    // Kept in docs/status-after-reload.png (copied from here when the widget's look changes).
    await page.elementLocator(element).screenshot({ path: '__screenshots__/status/after-reload.png' });

    // Approve on the reloaded page decides the approval in the run, and the line settles.
    waitingRow.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!.click();
    await vi.waitFor(
      () =>
        expect(lineTexts(element)).toEqual(['count_words done', 'gate was cut off by a restart', 'pay done']),
      patience,
    );
    expect(await run.callStatus('pay_1')).toMatchObject({
      status: 'completed',
      result: { value: { paid: 40 } },
    });
  });
});
