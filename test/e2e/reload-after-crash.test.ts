// A page with connectRun and attachStatus on the example Worker under `wrangler dev`, where users
// meet it: the page starts a detached `count_steps` (idempotent), a detached `slow_wait` and a
// `publish_note` that waits for approval; it reloads; the whole workerd process group is killed
// (SIGKILL) and started again on the same state; a new page on the same run shows each call as it
// truly is and picks up the result that the re-run delivered while no page listened.
// The page is served by the same `wrangler dev` (static assets), on the Worker's own origin.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RemoteRun } from '@toolctx/browser/remote';
import type { CallHandle, ToolResult } from '@toolctx/core';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget, waitUntil } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker, tokenFor } from '../worker/example-worker.js';
import { type OpenedDemo, openBrowser } from './demo-page.js';
import { shootScene, writesDocs, written } from './docs-images.js';

// The page a user writes: one run kept in localStorage, the ids of its calls fixed so a page that
// came back knows them, the token from the URL's fragment (never sent to a server). The first
// visit starts the run and its three calls; every visit connects to the run and shows its status.
const pageScript = `
import { connectRun } from '@toolctx/browser/remote';
import { attachStatus } from '@toolctx/browser/status';
const params = new URLSearchParams(location.hash.slice(1));
const headers = { authorization: 'Bearer ' + params.get('token') };
let runId = localStorage.getItem('run');
const first = !runId;
if (first) {
  const response = await fetch('/runs', { method: 'POST', headers });
  runId = (await response.json()).runId;
  localStorage.setItem('run', runId);
}
const run = connectRun(location.origin, runId, { headers });
globalThis.run = run;
attachStatus(document.querySelector('#status'), run, { locale: 'en', expanded: true });
if (first) {
  const delayMs = Number(params.get('stepMs'));
  void run.call({ tool: 'count_steps', args: { steps: 12, delayMs }, toolCallId: 'count_1', detached: true });
  void run.call({ tool: 'slow_wait', args: { ms: 600000 }, toolCallId: 'wait_1', detached: true });
  await run.call({ tool: 'publish_note', args: { title: 'Release notes' }, toolCallId: 'publish_1' });
}
document.body.dataset.run = runId;
`;
const pageHtml =
  '<!doctype html><meta charset="utf-8"><title>toolctx after a crash</title>' +
  '<link rel="icon" href="data:,">' +
  '<body style="margin:0;background:#fff"><div id="status" ' +
  'style="inline-size:32rem;padding:1rem;font:15px system-ui,sans-serif"></div>' +
  '<script type="module" src="/reload.js"></script></body>';

let worker: ExampleWorker;
let opened: OpenedDemo;
let pageDir = '';
// Each step of the count takes about a second on an idle machine, longer on a loaded one: the
// count must still be running when the crash comes, after a page load and a reload.
const stepMs = Math.min(5000, budget(1000));

beforeAll(async () => {
  pageDir = await mkdtemp(join(tmpdir(), 'toolctx-e2e-reload-'));
  const bundle = await build({
    stdin: { contents: pageScript, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    conditions: ['browser'],
    logLevel: 'silent',
  });
  await writeFile(join(pageDir, 'reload.js'), bundle.outputFiles[0]!.text);
  await writeFile(join(pageDir, 'reload.html'), pageHtml);
  worker = await startExampleWorker({}, { args: ['--assets', pageDir] });
  opened = await openBrowser({ viewport: { width: 800, height: 600 } });
});
afterAll(async () => {
  await opened?.browser.close();
  await worker?.dev.stop();
  if (pageDir) await rm(pageDir, { recursive: true, force: true });
  if (writesDocs && !written.has('status-after-reload.png'))
    throw new Error('No scene wrote status-after-reload.png.');
});
afterEach(({ task }) => {
  if (task.result?.state === 'fail')
    console.log(
      ['The page said:', ...opened.journal, 'wrangler dev printed:', worker.dev.output()].join('\n'),
    );
});

async function handleOf(runId: string, callId: string): Promise<CallHandle> {
  const response = await worker.send(`/runs/${runId}/calls/${callId}`);
  if (response.status !== 200) throw new Error(`${callId}: ${response.status} ${await response.text()}`);
  return (await response.json()) as CallHandle;
}

/** The widget's lines, each as its state and text. */
const lines = (page: Page) =>
  page
    .locator('.toolctx-status__line')
    .evaluateAll((found) =>
      found.map((line) => `${(line as HTMLElement).dataset.state}: ${line.textContent}`),
    );

async function openPage(url: string): Promise<{ page: Page; runId: string }> {
  const page = await opened.page.context().newPage();
  page.on('pageerror', (error) => opened.journal.push(`page error: ${error.message}`));
  page.on('console', (message) => opened.journal.push(`console ${message.type()}: ${message.text()}`));
  await page.goto(url);
  const runId = await waitUntil(
    async () => (await page.locator('body').getAttribute('data-run')) ?? undefined,
    {
      what: 'the page to connect to its run',
      ms: 30_000,
      output: () => opened.journal.join('\n'),
    },
  );
  return { page, runId };
}

describe('the widget after a reload and a crash of the Worker', () => {
  it("shows each call's true state on a new page: the cut-off wait failed as interrupted, the idempotent count re-run and its result delivered, the approval still waiting with Approve and Deny, which works", async () => {
    const token = await tokenFor('ana');
    const url = `${worker.dev.url}/reload.html#token=${token}&stepMs=${stepMs}`;
    const { page: first, runId } = await openPage(url);

    // All three are under way: the count and the wait have reported, the note waits for a person.
    await waitUntil(
      async () =>
        (await handleOf(runId, 'publish_1')).status === 'input_required' &&
        (await lines(first)).some((line) => /Step \d+ of 12/.test(line)),
      { what: 'the three calls to be under way', ms: 30_000 },
    );

    // The page reloads: it connects to the same run again and finds its calls where they are.
    await first.reload();
    await waitUntil(async () => (await first.locator('body').getAttribute('data-run')) === runId, {
      what: 'the reloaded page to connect to the same run',
      ms: 30_000,
    });
    await expect
      .poll(async () => (await lines(first)).sort(), { timeout: budget(15_000) })
      .toEqual([
        expect.stringMatching(/^pending: publish_note is waiting for approval…/),
        expect.stringMatching(/^running: Step \d+ of 12/),
        expect.stringMatching(/^running: Waiting…/),
      ]);
    await first.close();

    // The crash comes while the count and the wait run.
    const counting = await handleOf(runId, 'count_1');
    expect(counting.status, 'the count must still run when the crash comes').toBe('working');
    await worker.dev.crash();

    // A new page on the same run.
    const { page } = await openPage(url);
    const open = await page.evaluate(async () => {
      const handles: CallHandle[] = await (globalThis as unknown as { run: RemoteRun }).run.openCalls();
      return handles.map((handle) => [handle.toolCallId, handle.status]).sort();
    });
    expect(open).toEqual([
      ['count_1', 'working'],
      ['publish_1', 'input_required'],
    ]);
    // The wait was cut off: failed as interrupted (retryable), and its line says so in words.
    const waited = await page.evaluate(
      () => (globalThis as unknown as { run: RemoteRun }).run.result('wait_1') as Promise<ToolResult>,
    );
    expect(waited).toMatchObject({ ok: false, error: { kind: 'interrupted', retryable: true } });
    // The count ran again from the start, and its result reaches the page through result(id).
    const counted = await page.evaluate(
      () => (globalThis as unknown as { run: RemoteRun }).run.result('count_1') as Promise<ToolResult>,
    );
    expect(counted).toEqual(expect.objectContaining({ ok: true, value: { steps: 12 } }));
    expect(await handleOf(runId, 'count_1')).toMatchObject({ status: 'completed', attempts: 2 });

    const status = page.locator('#status');
    await expect
      .poll(() => lines(page), { timeout: budget(15_000) })
      .toEqual([
        expect.stringMatching(/^pending: publish_note is waiting for approval…/),
        // Finished lines in the order they ended: the wait when the run woke, the count later.
        expect.stringMatching(/^failed: slow_wait was cut off by a restart/),
        expect.stringMatching(/^done: count_steps done/),
      ]);
    const waitingLine = page.locator('.toolctx-status__line').first();
    expect(await waitingLine.locator('button').allTextContents()).toEqual(['Approve', 'Deny']);
    expect(await page.locator('.toolctx-status__action--cancel').count()).toBe(0);
    await shootScene(status, 'status-after-reload', 'status-after-reload.png');

    // Approve on the new page decides the approval the first page's call waited for.
    await waitingLine.locator('.toolctx-status__action--approve').click();
    await expect
      .poll(() => lines(page), { timeout: budget(15_000) })
      .toEqual([
        expect.stringMatching(/^failed: slow_wait was cut off by a restart/),
        expect.stringMatching(/^done: count_steps done/),
        expect.stringMatching(/^done: publish_note done/),
      ]);
    expect(await handleOf(runId, 'publish_1')).toMatchObject({
      status: 'completed',
      result: { ok: true, value: { published: 'Release notes' } },
    });
    expect(await handleOf(runId, 'wait_1')).toMatchObject({
      status: 'failed',
      result: { ok: false, error: { kind: 'interrupted' } },
    });
  });
});
