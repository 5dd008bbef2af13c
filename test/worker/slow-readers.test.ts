// Readers of a run's event stream that stop reading while the run is chatty are dropped once they
// are 1 MiB behind (maxQueuedBytesPerStream's default), so the Worker's memory stays bounded; the
// run goes on and finishes, and a reader resuming with Last-Event-ID gets every event after it,
// without a gap or a repeat. The chatty test Worker (test/chatty-worker) under `wrangler dev`; the
// readers are raw sockets paused after their first event, so only the kernel's buffers take more
// (about 8 MB each on loopback, outside the Worker). Memory is the RSS of the workerd process that
// runs the Worker and its Durable Objects, after a full GC in its isolate (through the inspector):
// what is held, not garbage. Measured on a 2-core machine: +17 to +22 MiB with the bound, and about
// one run in five near +31 MiB; with it lifted (`maxQueuedBytesPerStream: 1e12`), +50 to +51 MiB
// every time, every event not yet taken kept for them. In the high runs as in the others the
// isolate's JS heap after GC is 4.2 MiB: the extra is native memory workerd keeps, not a queue.
import type { ToolEvent } from '@toolctx/core';
import { parseSse } from '@toolctx/core/sse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatter, runtimeRssAfterGcKib, stalledReader, startRun } from '../bench/stalled-readers.mjs';
import { freePort, startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';
import { eventsUntil } from './sse-events.js';

const readers = 8;
const events = 1500;
const eventBytes = 32_768;
const mib = 1024 * 1024;

let dev: WranglerDev;
let inspectorPort: number;
beforeAll(async () => {
  inspectorPort = await freePort();
  dev = await startWranglerDev({
    cwd: edgeDir,
    config: '../../test/chatty-worker/wrangler.jsonc',
    readyPath: '/tools',
    args: ['--inspector-port', String(inspectorPort)],
  });
});
afterAll(() => dev?.stop());

const heldKib = () => runtimeRssAfterGcKib(inspectorPort, dev.url, dev.pgid()!);
const seqsOf = (text: string) => parseSse(text).map((message) => (JSON.parse(message.data) as ToolEvent).seq);

it(`${readers} readers that stop reading during a run of ${events} events of 32 KB are dropped: memory stays bounded, the run finishes, a resume misses nothing`, async () => {
  await chatter(dev.url, await startRun(dev.url), 200, eventBytes); // warm-up: what the first call loads
  const before = heldKib();
  const runId = await startRun(dev.url);
  const stalled = await Promise.all(Array.from({ length: readers }, () => stalledReader(dev.url, runId)));

  const result = await chatter(dev.url, runId, events, eventBytes);
  expect(result).toMatchObject({ ok: true, value: { events } });
  // The readers are still stalled: what the Worker holds for them now is what they cost.
  const grownMib = (heldKib() - before) / 1024;
  console.log(
    `${readers} stalled readers, ${events} events of ${eventBytes / 1024} KB: the Worker's RSS after GC grew ${grownMib.toFixed(1)} MiB; ` +
      'the readers still stalled',
  );
  // The bound: 1 MiB queued per reader, plus what the run itself leaves (its log's cache, the
  // isolate's own growth, the allocator's kept pages: up to ~31 MiB in all, measured). Without the
  // bound this grows by the events not yet taken, about 51 MiB, well over it.
  expect(grownMib).toBeLessThan((readers * mib + 32 * mib) / mib);

  // Each stalled reader's stream ends once it reads again: the in-flight piece, then the end,
  // far short of the run's events (a reader not dropped would still be open, its events coming).
  const seen: number[][] = [];
  for (const reader of stalled) {
    const { ended, body } = await reader.resume(30_000);
    expect(ended).toBe(true);
    const seqs = seqsOf(body);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(seqs.length).toBeLessThan(events);
    seen.push(seqs);
  }

  // The run goes on: it ends, and a fresh reader resuming after the first dropped reader's last
  // event gets every event after it, to run.finished, without a gap or a repeat.
  const last = seen[0]!.at(-1)!;
  const resumed = await fetch(`${dev.url}/runs/${runId}/events`, {
    headers: { 'last-event-id': String(last) },
  });
  const ending = fetch(`${dev.url}/runs/${runId}`, { method: 'DELETE' });
  const after = await eventsUntil(resumed, (got) => got.at(-1)?.type === 'run.finished', 60_000);
  expect((await ending).status).toBe(200);
  const finished = after.at(-1)!;
  expect(finished.type).toBe('run.finished');
  // run.started, tool.started, the progress events, tool.finished, run.finished.
  expect(finished.seq).toBe(events + 4);
  expect(after.map((event) => event.seq)).toEqual(
    Array.from({ length: finished.seq - last }, (_, i) => last + 1 + i),
  );
});
