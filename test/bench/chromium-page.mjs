// Runs inside Chromium (bundled by chromium.mjs): the status widget under load, and the
// IndexedDB artifact store against raw idb, plain and doing the same work.
import { createIdbArtifactStore } from '@toolctx/browser';
import { attachStatus } from '@toolctx/browser/status';
import { createRuntime, defineTool } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { openDB } from 'idb';
import { z } from 'zod';
import { interleaved } from './measure.mjs';

// Each call reports on its own timer; together they make `reportsPerSecond` reports a second.
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

// Beside them, a call waiting for approval (Approve and Deny on its line) and one asking its user
// (a form on its line): the per-line actions a busy run shows.
const publish = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a note, once approved.',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});
const plan = defineTool({
  name: 'plan_meeting',
  description: 'Plans a meeting, asking where.',
  inputSchema: z.object({}),
  execute: (_args, ctx) =>
    ctx.ask({
      message: 'Where shall we meet?',
      schema: { type: 'object', properties: { room: { type: 'string' } }, required: ['room'] },
    }),
});

/**
 * The same lines written by hand, as a page without the widget would: one per call with its tool,
 * its state and latest report, a bar, and a Cancel button; every changed line written once a
 * frame. What the widget adds beyond it: folding, the approval and ask forms, a line's time,
 * accessibility (a live region, labels), holding lines out of view.
 */
function statusByHand(element, run) {
  const lines = new Map();
  const changed = new Set();
  let frame = 0;
  const lineOf = (callId, tool) => {
    let line = lines.get(callId);
    if (line) return line;
    const row = document.createElement('div');
    const text = document.createElement('span');
    const cancel = document.createElement('button');
    cancel.textContent = 'Cancel';
    cancel.onclick = () => run.cancel(callId);
    const bar = document.createElement('div');
    bar.style.cssText = 'height:4px;background:#3367d6;transform-origin:left;transform:scaleX(0)';
    row.append(text, cancel, bar);
    element.append(row);
    line = { tool, state: 'running', message: '', fraction: 0, text, bar };
    lines.set(callId, line);
    return line;
  };
  const write = () => {
    frame = 0;
    for (const line of changed) {
      line.text.textContent = `${line.tool} · ${line.state} · ${line.message}`;
      line.bar.style.transform = `scaleX(${line.fraction})`;
    }
    changed.clear();
  };
  const unsubscribe = run.events.subscribe((event) => {
    if (!event.callId) return;
    const line = lineOf(event.callId, event.data.tool);
    if (event.type === 'tool.progress') {
      const { message = '', done, total } = event.data.payload ?? {};
      line.message = message;
      if (total) line.fraction = done / total;
    } else if (event.type === 'approval.requested') line.state = 'waiting for approval';
    else if (event.type === 'ask.requested') line.state = event.data.message;
    else if (event.type !== 'tool.started') line.state = event.type;
    changed.add(line);
    frame ||= requestAnimationFrame(write);
  });
  return {
    detach() {
      unsubscribe();
      cancelAnimationFrame(frame);
    },
  };
}

/**
 * Drives `calls` calls making `reportsPerSecond` reports a second between them for `ms`, shown by
 * `mode`: `none`, the `widget`, or the same lines written by `hand`; returns frames seen, DOM
 * write batches per frame and reports made.
 */
window.benchWidget = async (mode, ms, calls = 50, reportsPerSecond = 10_000) => {
  const runtime = createRuntime({ tools: [ticker, publish, plan], approval: createMemoryApprovalPort() });
  const run = runtime.startRun({});
  const element = document.createElement('div');
  document.body.replaceChildren(element);
  const handle =
    mode === 'widget' ? attachStatus(element, run) : mode === 'hand' ? statusByHand(element, run) : undefined;
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
  const perSecond = reportsPerSecond / calls;
  const made = [
    run.call({ tool: 'publish_note', args: { text: 'The quick brown fox' } }),
    run.call({ tool: 'plan_meeting', args: {} }),
    ...Array.from({ length: calls }, () => run.call({ tool: 'ticker', args: { perSecond } })),
  ];
  await new Promise((resolve) => setTimeout(resolve, ms));
  counting = false;
  await run.abort('the benchmark is over');
  // The waiting calls end cancelled.
  await Promise.allSettled(made);
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
const idbStores = {};

/**
 * Median milliseconds of `repeats` put, get and delete of `bytes` bytes: through the store;
 * through raw idb doing the same work (`same`: the sha-256 digest, a scope index, the caps'
 * bookkeeping); through plain raw idb (`raw`: a metadata record and the bytes); and the two
 * sha-256 passes alone (`digests`), the share of the same work that plain raw idb leaves out. The
 * four take turns within each repeat, so a slow patch falls on all alike.
 */
window.benchIdb = async (bytes, repeats) => {
  const data = new Uint8Array(bytes).fill(7);
  // One store per size, kept for the size's rounds as the raw databases are.
  idbStores[bytes] ??= createIdbArtifactStore({ name: `bench-store-${bytes}` });
  const store = idbStores[bytes];
  const raw = await openDB(`bench-raw-${bytes}`, 1, {
    upgrade(db) {
      db.createObjectStore('meta');
      db.createObjectStore('blobs');
    },
  });
  const same = await openDB(`bench-same-${bytes}`, 1, {
    upgrade(db) {
      db.createObjectStore('meta').createIndex('order', ['s', 'q'], { unique: true });
      db.createObjectStore('bytes');
      db.createObjectStore('scopes');
    },
  });
  const bodies = {
    store: async () => {
      const meta = await store.put(scope, { kind: 'bench', data });
      const got = await store.get(scope, meta.ref);
      if (got.data.length !== bytes) throw new Error('The store returned the wrong bytes.');
      await store.delete(scope, meta.ref);
    },
    same: () => samePutGet(same, data),
    raw: () => rawPutGet(raw, data),
    // The digest's share: the two sha-256 passes the contract demands (on put, on get), alone.
    digests: async () => {
      const put = await sha256Hex(data);
      const get = await sha256Hex(data);
      if (get !== put) throw new Error('The digests differ.');
    },
  };
  const times = await interleaved(bodies, repeats);
  raw.close();
  same.close();
  return times;
};

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const sha256Hex = async (body) => {
  let hex = '';
  for (const byte of new Uint8Array(await crypto.subtle.digest('SHA-256', body))) hex += HEX[byte];
  return hex;
};
const CAPS = { count: 1_000_000, bytes: 1 << 30 };

/**
 * What a hand-written store keeping the same promises does: the hex digest before the write; in
 * one transaction the scope's totals read, the caps checked, then the bytes, the metadata record
 * (indexed by scope and order) and the new totals written; both read back in one read-only
 * transaction, the digest checked; then deleted in one transaction that gives the totals back.
 */
async function samePutGet(db, data) {
  const s = 'bench/bench/bench';
  const ref = crypto.randomUUID();
  const m = { ref, kind: 'bench', bytes: data.length, createdAt: Date.now(), digest: await sha256Hex(data) };
  const put = db.transaction(['meta', 'bytes', 'scopes'], 'readwrite');
  const totals = (await put.objectStore('scopes').get(s)) ?? { count: 0, bytes: 0, seq: 0 };
  if (totals.count + 1 > CAPS.count || totals.bytes + data.length > CAPS.bytes)
    throw new Error('Over a cap.');
  const q = totals.seq + 1;
  await Promise.all([
    put.objectStore('bytes').put(data, [s, ref]),
    put.objectStore('meta').put({ s, q, m }, [s, ref]),
    put.objectStore('scopes').put({ count: totals.count + 1, bytes: totals.bytes + data.length, seq: q }, s),
    put.done,
  ]);
  const read = db.transaction(['meta', 'bytes']);
  const [record, bytes] = await Promise.all([
    read.objectStore('meta').get([s, ref]),
    read.objectStore('bytes').get([s, ref]),
  ]);
  if ((await sha256Hex(bytes)) !== record.m.digest) throw new Error('The digest did not match.');
  const del = db.transaction(['meta', 'bytes', 'scopes'], 'readwrite');
  const [gone, now] = await Promise.all([
    del.objectStore('meta').get([s, ref]),
    del.objectStore('scopes').get(s),
  ]);
  await Promise.all([
    del.objectStore('meta').delete([s, ref]),
    del.objectStore('bytes').delete([s, ref]),
    del.objectStore('scopes').put({ ...now, count: now.count - 1, bytes: now.bytes - gone.m.bytes }, s),
    del.done,
  ]);
}

/** What a hand-written store does at least: a metadata record and the bytes, read back, deleted. */
async function rawPutGet(db, data) {
  const key = crypto.randomUUID();
  const meta = { key, size: data.length, createdAt: Date.now() };
  const tx = db.transaction(['meta', 'blobs'], 'readwrite');
  await Promise.all([tx.objectStore('meta').put(meta, key), tx.objectStore('blobs').put(data, key), tx.done]);
  const read = db.transaction(['meta', 'blobs']);
  const [, bytes] = await Promise.all([
    read.objectStore('meta').get(key),
    read.objectStore('blobs').get(key),
  ]);
  if (bytes.length !== data.length) throw new Error('Raw idb returned the wrong bytes.');
  const del = db.transaction(['meta', 'blobs'], 'readwrite');
  await Promise.all([del.objectStore('meta').delete(key), del.objectStore('blobs').delete(key), del.done]);
}
