// Chromium benchmarks (c, d): bundles chromium-page.mjs with esbuild, serves it to a page on a
// routed origin (IndexedDB needs a real origin) and drives it with playwright-core.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../packages/browser/scripts/chromium.mjs';
import { median } from './measure.mjs';

// A secure origin (crypto.randomUUID, IndexedDB), answered by the route below: no server runs.
const ORIGIN = 'https://toolctx.bench';

/** Runs `body(page, cdp)` against the bench page in a fresh headless Chromium. */
export async function withBenchPage(body) {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./chromium-page.mjs', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    // The viewport is stated, not left to Playwright's default: the widget's cost depends on it.
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.route(`${ORIGIN}/**`, (route) => {
      const isScript = route.request().url().endsWith('.js');
      route.fulfill({
        contentType: isScript ? 'text/javascript' : 'text/html',
        body: isScript
          ? bundled.outputFiles[0].text
          : '<!doctype html><script type="module" src="/page.js"></script>',
      });
    });
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${ORIGIN}/`);
    await page.waitForLoadState('load');
    if (errors.length) throw new Error(`The bench page failed: ${errors.join('; ')}`);
    await page.waitForFunction(() => typeof window.benchIdb === 'function');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    return await body(page, cdp);
  } finally {
    await browser.close();
  }
}

// DevTools metrics read around a round, in seconds: wall time of main-thread tasks, the main
// thread's CPU time (what a shared machine's other load does not inflate), and where it went.
const METRICS = {
  busyMs: 'TaskDuration',
  cpuMs: 'ThreadTime',
  scriptMs: 'ScriptDuration',
  styleMs: 'RecalcStyleDuration',
  layoutMs: 'LayoutDuration',
};

/** Main-thread time (ms) the page spent while `body` ran, wall and CPU, from the DevTools metrics. */
async function mainThreadMs(cdp, body) {
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const byName = new Map(metrics.map((metric) => [metric.name, metric.value]));
    return Object.fromEntries(Object.entries(METRICS).map(([key, name]) => [key, byName.get(name) * 1000]));
  };
  const before = await read();
  const result = await body();
  const after = await read();
  const spent = Object.fromEntries(Object.keys(METRICS).map((key) => [key, after[key] - before[key]]));
  return { ...result, ...spent };
}

/**
 * (c) The widget's main-thread cost per frame: the same load without it, with it, and with the same
 * lines written by hand (chromium-page.mjs, statusByHand), 5 rounds each, taking turns (on a shared machine single rounds range from 0.5× to 2× the median). The load is
 * `calls` calls making `reportsPerSecond` reports a second between them, each line with its Cancel
 * button (a run offers `cancel`), in the page's 1280 × 720 viewport: most of 50 lines are out of
 * view, as in a page, and the widget writes a line's words only while it is in view.
 */
export async function widgetCost(page, cdp, ms = 3_000, { calls = 50, reportsPerSecond = 10_000 } = {}) {
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    for (const mode of ['none', 'widget', 'hand']) {
      rounds.push({
        mode,
        ...(await mainThreadMs(cdp, () =>
          page.evaluate((args) => window.benchWidget(...args), [mode, ms, calls, reportsPerSecond]),
        )),
      });
    }
  }
  return rounds;
}

/**
 * (d) IndexedDB: the artifact store against raw idb doing the same work, plain raw idb and the
 * digests alone, put, get and delete. Three rounds, each of its own repeats with the sides taking
 * turns; each figure is the median of the rounds' medians, each ratio the median of the rounds'.
 */
export async function idbStore(page, sizes, rounds = 3) {
  const rows = [];
  for (const bytes of sizes) {
    const repeats = bytes >= 1e7 ? 7 : 21;
    const measured = [];
    for (let round = 0; round < rounds; round++)
      measured.push(await page.evaluate(([b, r]) => window.benchIdb(b, r), [bytes, repeats]));
    const of = (side) => median(measured.map((one) => one[side]));
    const ratioOf = (a, b) => median(measured.map((one) => one[a] / one[b]));
    rows.push({
      bytes,
      store: of('store'),
      same: of('same'),
      raw: of('raw'),
      digests: of('digests'),
      sameToStore: ratioOf('same', 'store'),
      rawToStore: ratioOf('raw', 'store'),
      rawToSame: ratioOf('raw', 'same'),
      digestsOfSame: ratioOf('digests', 'same'),
    });
  }
  return rows;
}
