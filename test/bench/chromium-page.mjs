// Runs inside Chromium (bundled by chromium.mjs): the status widget under load, and the
// IndexedDB artifact store against raw idb doing the same put and get.
import { createIdbArtifactStore } from '@toolctx/browser';
import { attachStatus } from '@toolctx/browser/status';
import { createRuntime, defineTool } from '@toolctx/core';
import { openDB } from 'idb';
import { z } from 'zod';
import { interleaved } from './measure.mjs';

const CALLS = 50;
const REPORTS_PER_SECOND = 10_000;

// Each of the 50 calls reports on its own timer; together they make 10,000 reports a second.
const ticker = defineTool({
  name: 'ticker',
  description: 'Reports progress at a fixed rate until its signal fires.',
  inputSchema: z.object({ perSecond: z.number() }),
  execute({ perSecond }, ctx) {
    return new Promise((resolve) => {
      const started = performance.now();
      let sent = 0;
      const timer = setInterval(() => {
        const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
        while (sent < due) ctx.progress({ message: `report ${++sent}`, done: sent % 100, total: 100 });
      }, 4);
      ctx.signal.addEventListener('abort', () => {
        clearInterval(timer);
        resolve(sent);
      });
    });
  },
});

/** Drives 50 calls for `ms`; returns frames seen, DOM write batches per frame and reports made. */
window.benchWidget = async (withWidget, ms) => {
  const runtime = createRuntime({ tools: [ticker] });
  const run = runtime.startRun({});
  const element = document.createElement('div');
  document.body.replaceChildren(element);
  const handle = withWidget ? attachStatus(element, run) : undefined;
  let reports = 0;
  run.events.subscribe((event) => {
    if (event.type === 'tool.progress') reports++;
  });
  const writesByFrame = new Map();
  const observer = new MutationObserver(() => {
    const frame = Number(document.timeline.currentTime);
    writesByFrame.set(frame, (writesByFrame.get(frame) ?? 0) + 1);
  });
  observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
  let frames = 0;
  let counting = true;
  const tick = () => {
    frames++;
    if (counting) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const perSecond = REPORTS_PER_SECOND / CALLS;
  const calls = Array.from({ length: CALLS }, () => run.call({ tool: 'ticker', args: { perSecond } }));
  await new Promise((resolve) => setTimeout(resolve, ms));
  counting = false;
  await run.abort('the benchmark is over');
  await Promise.all(calls);
  observer.disconnect();
  handle?.detach();
  return {
    frames,
    reports,
    writeFrames: writesByFrame.size,
    maxWritesPerFrame: Math.max(0, ...writesByFrame.values()),
  };
};

const scope = { tenant: 'bench', principal: 'bench', conversation: 'bench' };

/**
 * Median milliseconds of `repeats` put-then-get of `bytes` bytes: through the store, through raw
 * idb, and through raw idb plus what the artifact contract demands (a sha-256 digest on put,
 * verified on get). The three take turns within each repeat, so a slow patch falls on all alike.
 */
window.benchIdb = async (bytes, repeats) => {
  const data = new Uint8Array(bytes).fill(7);
  const store = createIdbArtifactStore({ name: `bench-store-${bytes}` });
  const raw = await openDB(`bench-raw-${bytes}`, 1, {
    upgrade(db) {
      db.createObjectStore('meta');
      db.createObjectStore('blobs');
    },
  });
  const sha256 = async (body) => new Uint8Array(await crypto.subtle.digest('SHA-256', body)).join();
  const bodies = {
    store: async () => {
      const meta = await store.put(scope, { kind: 'bench', data });
      const got = await store.get(scope, meta.ref);
      if (got.data.length !== bytes) throw new Error('The store returned the wrong bytes.');
      await store.delete(scope, meta.ref);
    },
    // What a hand-written store does at least: a metadata record and the bytes, then read both.
    raw: () => rawPutGet(raw, data),
    hashed: () => rawPutGet(raw, data, sha256),
  };
  const times = await interleaved(bodies, repeats);
  raw.close();
  return times;
};

async function rawPutGet(db, data, digest) {
  const key = crypto.randomUUID();
  const meta = { key, size: data.length, createdAt: Date.now() };
  if (digest) meta.digest = await digest(data);
  const tx = db.transaction(['meta', 'blobs'], 'readwrite');
  await Promise.all([tx.objectStore('meta').put(meta, key), tx.objectStore('blobs').put(data, key), tx.done]);
  const read = db.transaction(['meta', 'blobs']);
  const [got, bytes] = await Promise.all([
    read.objectStore('meta').get(key),
    read.objectStore('blobs').get(key),
  ]);
  if (bytes.length !== data.length) throw new Error('Raw idb returned the wrong bytes.');
  if (digest && (await digest(bytes)) !== got.digest) throw new Error('The digest did not match.');
  await db.delete('blobs', key);
  await db.delete('meta', key);
}
