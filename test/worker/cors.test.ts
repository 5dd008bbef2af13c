// A page on another origin follows a run of the example Worker under `wrangler dev`: its
// `TOOLCTX_ALLOWED_ORIGINS` lets the page's origin in, so `connectRun` in headless Chromium reads
// the run's event stream (the preflight needs no token), and a page on any other origin is kept out.
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../chromium.js';
import { type ServedPage, servePage } from '../page-server.js';
import { budget } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker, tokenFor } from './example-worker.js';

// The page: follows the run named in its query string with connectRun and attachStatus, and
// records what it saw (or the error that ended it) on `window.seen`.
const pageScript = `
import { connectRun } from '@toolctx/browser/remote';
import { attachStatus } from '@toolctx/browser/status';
const query = new URLSearchParams(location.search);
const events = connectRun(query.get('worker'), query.get('run'), {
  headers: { authorization: 'Bearer ' + query.get('token') },
  retry: { attempts: 0 },
});
attachStatus(document.querySelector('#status'), events);
window.seen = { types: [], done: false };
try {
  for await (const event of events) window.seen.types.push(event.type);
} catch (error) {
  window.seen.error = { name: error.name, status: error.status ?? null, message: error.message };
}
window.seen.done = true;
`;

let worker: ExampleWorker;
let pages: ServedPage;
let pagePort: number;
let browser: Browser;

beforeAll(async () => {
  pages = await servePage(
    pageScript,
    fileURLToPath(new URL('.', import.meta.url)),
    '<div id="status"></div>',
  );
  pagePort = pages.port;
  // Only the page served from 127.0.0.1 is allowed; the same page from localhost is another origin.
  worker = await startExampleWorker({ TOOLCTX_ALLOWED_ORIGINS: `http://127.0.0.1:${pagePort}` });
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});
afterAll(async () => {
  await browser?.close();
  await worker?.dev.stop();
  await pages?.close();
});

/** Opens the page on `host`, following `runId`; answers what it saw once its stream ended. */
async function follow(host: string, runId: string, token?: string) {
  const page: Page = await browser.newPage();
  try {
    const query = new URLSearchParams({
      worker: worker.dev.url,
      run: runId,
      token: token ?? (await tokenFor('ana')),
    });
    await page.goto(`http://${host}:${pagePort}/?${query}`);
    await page.waitForFunction(
      () => (window as { seen?: { done: boolean } }).seen?.done === true,
      undefined,
      {
        timeout: budget(20_000),
      },
    );
    const seen = await page.evaluate(
      () =>
        (window as unknown as { seen: { types: string[]; error?: { name: string; status: number | null } } })
          .seen,
    );
    const status = await page.locator('#status .toolctx-status__summary').textContent();
    return { ...seen, status };
  } finally {
    await page.close();
  }
}

describe('CORS on the example Worker under wrangler dev', () => {
  it('answers a preflight from an allowed origin without a token, and one from another origin without its origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${worker.dev.url}/runs/run_x/events`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, last-event-id',
        },
      });
    const allowed = await preflight(`http://127.0.0.1:${pagePort}`);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(`http://127.0.0.1:${pagePort}`);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('last-event-id');
    const other = await preflight(`http://localhost:${pagePort}`);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets connectRun on a page of an allowed origin follow a run to its end', async () => {
    const runId = await worker.startRun();
    const called = await worker.post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 2 } });
    expect(await called.json()).toMatchObject({ ok: true });
    expect((await worker.send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);

    const seen = await follow('127.0.0.1', runId);
    expect(seen.error).toBeUndefined();
    expect(seen.types).toEqual(
      expect.arrayContaining(['run.started', 'tool.started', 'tool.progress', 'tool.finished']),
    );
    expect(seen.types.at(-1)).toBe('run.finished');
    expect(seen.status).toContain('1 of 1 done');
  });

  it('lets a page of an allowed origin read a 401, and keeps a page of another origin out', async () => {
    const runId = await worker.startRun();
    const refused = await follow('127.0.0.1', runId, 'wrong-token');
    expect(refused.types).toEqual([]);
    expect(refused.error).toMatchObject({ name: 'RemoteRunError', status: 401 });

    const elsewhere = await follow('localhost', runId);
    expect(elsewhere.types).toEqual([]);
    // The browser withholds the answer: to the page the request failed, with no status at all.
    expect(elsewhere.error).toMatchObject({ name: 'RemoteRunError', status: null });
  });
});
