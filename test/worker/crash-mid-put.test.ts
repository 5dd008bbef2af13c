// A Worker killed in the middle of an artifact put, under `wrangler dev`: the whole process group
// gets SIGKILL while the example Worker's `save_generated` streams its bytes into the KV+R2 store,
// then wrangler starts again on the same --persist-to state. The Worker is the example Worker plus
// two routes that show the store's raw KV keys, R2 objects and open multipart uploads
// (packages/edge/src/example/state-worker.ts), and `--test-scheduled` runs its hourly cron (the
// sweep) at GET /__scheduled, with TOOLCTX_ABANDONED_PUT_MS set to a second.
//
// The store holds a streamed put in memory until it has a 5 MiB part (R2's smallest), so a put of
// 5 MB killed mid-way never wrote to R2; one of 8 MiB killed after its first part left a multipart
// upload open, which the sweep must abort.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget, waitUntil } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';
import { type ArrivedEvent, watchRun } from './run-events.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const PART = 5 * MiB;
const CHUNK = 512 * KiB;
// Slow enough that the kill lands well before the put's end, on a loaded machine too.
const DELAY_MS = budget(400);

let worker: ExampleWorker;
// A whole artifact, saved before any crash: kept through both, and by the sweep.
let kept: string;
beforeAll(async () => {
  worker = await startExampleWorker(
    { TOOLCTX_ABANDONED_PUT_MS: '1000' },
    { config: 'src/example/wrangler.state.jsonc', args: ['--test-scheduled'] },
  );
  kept = await savedNote();
});
afterAll(() => worker?.dev.stop());

interface StoreState {
  objects: string[];
  keys: string[];
  marks: { name: string; uploadId?: string }[];
}

const lastSegment = (key: string) => key.slice(key.lastIndexOf('/') + 1);

async function storeState(): Promise<StoreState> {
  const response = await worker.send('/__state/artifacts');
  expect(response.status).toBe(200);
  return (await response.json()) as StoreState;
}

/** The refs each part of the store holds: R2 objects, KV ref keys, KV listing keys, marks (in R2). */
function refsOf(state: StoreState) {
  const marks = 'artifacts/.pending/';
  const under = (prefix: string) => state.keys.filter((name) => name.startsWith(prefix));
  return {
    r2: state.objects
      .filter((key) => !key.startsWith(marks))
      .map(lastSegment)
      .sort(),
    index: under('artifacts/ref/').map(lastSegment).sort(),
    listing: under('artifacts/list/')
      .map((name) => name.slice(name.lastIndexOf('.') + 1))
      .sort(),
    marks: state.objects
      .filter((key) => key.startsWith(marks))
      .map(lastSegment)
      .sort(),
  };
}

async function listedRefs(): Promise<string[]> {
  const response = await worker.send('/artifacts?limit=1000');
  expect(response.status).toBe(200);
  return ((await response.json()) as { artifacts: { ref: string }[] }).artifacts.map((meta) => meta.ref);
}

async function expectGone(ref: string): Promise<void> {
  for (const method of ['GET', 'HEAD']) {
    const response = await worker.send(`/artifacts/${ref}`, { method });
    await response.arrayBuffer();
    expect(response.status, `${method} /artifacts/${ref}`).toBe(404);
  }
}

async function uploadOpen(key: string, uploadId: string): Promise<boolean> {
  const query = new URLSearchParams({ key, uploadId });
  const response = await worker.send(`/__state/upload?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { open: boolean }).open;
}

/** Bytes in the files of local R2's blob store (objects and multipart parts) under the persist dir. */
async function r2BlobBytes(): Promise<number> {
  let total = 0;
  const walk = async (dir: string, inBlobs: boolean): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, inBlobs || entry.name === 'blobs');
      else if (inBlobs) total += (await stat(path).catch(() => ({ size: 0 }))).size;
    }
  };
  await walk(join(worker.dev.stateDir, 'v3', 'r2'), false);
  return total;
}

/** Saves a note through a run: an artifact that is whole, to keep through the crash and the sweep. */
async function savedNote(): Promise<string> {
  const runId = await worker.startRun();
  const response = await worker.post(`/runs/${runId}/calls`, { tool: 'save_note', args: { text: 'kept' } });
  const result = (await response.json()) as { ok: boolean; value: { ref: string } };
  expect(result.ok).toBe(true);
  return result.value.ref;
}

/**
 * Starts `save_generated` for `bytes` in a run, waits until its progress has passed `killAfter`
 * bytes (and it has not finished), and kills the whole process group; answers once wrangler is up
 * again, with the last progress seen.
 */
async function crashDuringPut(bytes: number, killAfter: number): Promise<number> {
  const runId = await worker.startRun();
  const events = await watchRun(worker, runId);
  const toolCallId = `call_crash_${bytes}`;
  const call = worker
    .post(`/runs/${runId}/calls`, {
      tool: 'save_generated',
      args: { bytes, chunkBytes: CHUNK, delayMs: DELAY_MS },
      toolCallId,
    })
    .then((response) => response.text())
    .catch(() => 'the connection died with the process');
  const doneOf = (event: ArrivedEvent) => (event.data as { payload?: { done?: number } }).payload?.done ?? 0;
  const progress = await events.next(
    (event) =>
      event.callId === toolCallId &&
      (event.type !== 'tool.progress' || doneOf(event) >= killAfter) &&
      event.type !== 'tool.started',
    60_000,
  );
  // The call must still be under way: a put that ended (or failed) before the kill proves nothing.
  expect(progress.type).toBe('tool.progress');
  events.close();
  await worker.dev.crash();
  await call;
  return doneOf(progress);
}

describe('a crash in the middle of an artifact put, under wrangler dev', () => {
  it('a 5 MB put killed mid-stream, before anything reached R2: after the restart nothing of it is listed, stored, indexed or marked', async () => {
    const done = await crashDuringPut(5_000_000, 2 * CHUNK);
    console.log(`5 MB put killed after ${done} of 5000000 bytes`);
    expect(await listedRefs()).toEqual([kept]);
    const refs = refsOf(await storeState());
    expect(refs).toEqual({ r2: [kept], index: [kept], listing: [kept], marks: [] });
    expect(await r2BlobBytes()).toBeLessThan(KiB);
  });

  it('an 8 MiB put killed after its first 5 MiB part reached R2: never listed or readable; the sweep aborts its open upload, and KV and R2 agree', async () => {
    const done = await crashDuringPut(8 * MiB, PART + CHUNK);
    console.log(`8 MiB put killed after ${done} of ${8 * MiB} bytes`);

    // After the restart: the artifact listing shows only the whole one, and the put's ref (which
    // only its mark names) answers 404.
    expect(await listedRefs()).toEqual([kept]);
    const before = await storeState();
    expect(refsOf(before)).toMatchObject({ r2: [kept], index: [kept], listing: [kept] });
    expect(before.marks).toHaveLength(1);
    const [{ name, uploadId }] = before.marks as [{ name: string; uploadId?: string }];
    const ref = lastSegment(name);
    await expectGone(ref);
    // What the kill left: an open multipart upload holding the first part, which no listing shows.
    expect(uploadId).toEqual(expect.any(String));
    const object = `artifacts/${name.slice('artifacts/.pending/'.length)}`;
    expect(await uploadOpen(object, uploadId!)).toBe(true);
    const heldBefore = await r2BlobBytes();
    expect(heldBefore).toBeGreaterThanOrEqual(PART);

    // The cron's sweep, once the mark is a second old, aborts the upload and drops the mark.
    const swept = await waitUntil(
      async () => {
        const response = await fetch(`${worker.dev.url}/__scheduled?cron=0+*+*+*+*`);
        await response.text();
        const state = await storeState();
        return state.marks.length === 0 && state;
      },
      { what: 'the scheduled sweep to remove the abandoned put', ms: 20_000, every: 500 },
    );
    expect(await uploadOpen(object, uploadId!)).toBe(false);
    expect(refsOf(swept)).toEqual({ r2: [kept], index: [kept], listing: [kept], marks: [] });
    expect(await listedRefs()).toEqual([kept]);
    await expectGone(ref);
    const kept200 = await worker.send(`/artifacts/${kept}`);
    expect(await kept200.text()).toBe('kept');
    // Local R2 deletes the aborted parts' files in the background.
    const heldAfter = await waitUntil(
      async () => {
        const bytes = await r2BlobBytes();
        return bytes < KiB ? bytes : false;
      },
      {
        what: "local R2 to delete the aborted upload's part",
        ms: 10_000,
      },
    );
    console.log(`R2 blob bytes: ${heldBefore} after the crash, ${heldAfter} after the sweep`);
  });
});
