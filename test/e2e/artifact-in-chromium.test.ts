// What a browser does with an artifact's link, where a person meets it: headless Chromium opens
// the HTTP door of the MCP test Worker (packages/edge/src/mcp/test-worker.ts) under `wrangler dev`.
// An HTML page and an SVG with script are downloaded under a safe name, never rendered in the
// door's origin; a plain-text artifact holding markup is shown as text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { edgeDir } from '../worker/example-worker.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { type OpenedDemo, openBrowser } from './demo-page.js';

let dev: WranglerDev;
let opened: OpenedDemo;

beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
  opened = await openBrowser({ acceptDownloads: true, extraHTTPHeaders: { authorization: 'Bearer ana' } });
});
afterAll(async () => {
  await opened?.browser.close();
  await dev?.stop();
});

async function save(args: { text: string; mediaType: string; label?: string }): Promise<string> {
  const response = await fetch(`${dev.url}/http-artifacts/calls`, {
    method: 'POST',
    headers: { authorization: 'Bearer ana', 'content-type': 'application/json' },
    body: JSON.stringify({ tool: 'save_page', args }),
  });
  const result = (await response.json()) as { ok: boolean; value?: { ref: string } };
  if (!result.value) throw new Error(`save_page failed: ${JSON.stringify(result)}`);
  return result.value.ref;
}

describe('artifact links in Chromium', () => {
  it('downloads an HTML page and an SVG with script under a safe name; neither runs in the page', async () => {
    const { page } = opened;
    const script =
      '<script>document.title = "ran"; fetch("/http-artifacts/calls", { method: "POST" })</script>';
    const cases = [
      { ref: await save({ text: `<!doctype html>${script}`, mediaType: 'text/html' }), name: '' },
      {
        ref: await save({
          text: '<svg xmlns="http://www.w3.org/2000/svg" onload="document.title=\'ran\'"/>',
          mediaType: 'image/svg+xml',
          label: 'chart\u202Egvs.exe',
        }),
        name: 'chart_gvs.exe',
      },
    ];
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    for (const { ref, name } of cases) {
      await page.goto('about:blank');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: budget(15_000) }),
        // Chromium aborts a navigation that turns into a download.
        page.goto(`${dev.url}/http-artifacts/artifacts/${ref}`).catch(() => undefined),
      ]);
      expect(download.suggestedFilename()).toBe(name || ref);
      expect(page.url()).toBe('about:blank');
      expect(await page.title()).not.toBe('ran');
    }
    expect(posts).toEqual([]);
  });

  it('shows a plain-text artifact holding markup as text, under a CSP that runs nothing', async () => {
    const { page } = opened;
    const ref = await save({
      text: '<script>document.title = "ran"</script><b>bold</b>',
      mediaType: 'text/plain',
    });
    const response = await page.goto(`${dev.url}/http-artifacts/artifacts/${ref}`);
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    expect(await page.evaluate(() => document.contentType)).toBe('text/plain');
    expect(await page.evaluate(() => document.querySelector('b'))).toBeNull();
    expect(await page.title()).not.toBe('ran');
    // The sandbox gives the document an opaque origin: nothing in it can reach the door's storage or cookies.
    expect(await page.evaluate(() => origin)).toBe('null');
  });
});
