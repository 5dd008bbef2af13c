// The Worker that workerd.mjs bundles and runs in Miniflare for benchmarks (d) and (e). One Worker,
// so each toolctx path and its baseline share the isolate, the bindings and the load:
// - POST /store?which=store|raw|plain&size=…&reps=…: reps × (put then get) of `size` bytes, through
//   the KV+R2 artifact store, the same raw KV and R2 calls, or those without the put's pending mark; POST /store/clean removes them.
// - /door/*: the toolctx HTTP door (createToolServer, a Durable Object per run).
// - POST /bare/runs/:runId/calls: a bare hono route doing the door's work by hand.
// - POST /floor/runs/:runId/calls: the bare route plus one RPC to a Durable Object per run that does
//   nothing, the floor of a design that keeps each run in a Durable Object.
// - POST /floor-write/runs/:runId/calls: the same, but the RPC makes one storage write of an event:
//   the floor of a design whose events are durable before it answers, as the run route's are.
// - POST /floor-log/runs/:runId/calls: the same, but the RPC does by hand the storage work the run
//   route's contract asks of a call: its two events (the oldest trimmed) and its settled record.
// - GET /decompose?runId=…&n=…: one run-route call taken apart inside the isolate, with no HTTP:
//   n sequential no-op RPCs, n RPCs that make one write, n of the door's own Durable Object calls.

import { DurableObject } from 'cloudflare:workers';
import { createRuntime, defineTool } from '@toolctx/core';
import { createKvR2ArtifactStore, createToolServer, durableObjectRuns } from '@toolctx/edge';
import { createRunHost } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { z } from 'zod';
import { median } from './measure.mjs';

// The trivial tool both HTTP paths run: small zod-validated arguments, a sum back.
const input = z.object({ a: z.number(), b: z.number() });
const add = ({ a, b }) => ({ sum: a + b });
const runtime = createRuntime({
  tools: [defineTool({ name: 'add', description: 'Adds two numbers.', inputSchema: input, execute: add })],
});

export class BenchRunHost extends createRunHost(() => runtime) {}

// The same check on both paths: a bearer token names the caller.
const authenticate = (request) =>
  request.headers.get('authorization') === 'Bearer bench' ? { tenant: 'bench', principal: 'bench' } : null;

const app = new Hono();
app.route(
  '/door',
  createToolServer({ runtimeFor: () => runtime, runs: (env) => durableObjectRuns(env.RUNS), authenticate }),
);

// What a user would write without toolctx: authenticate, parse the JSON body, validate the args with
// the same zod schema, run the same function, answer JSON shaped like the door's ToolResult.
// `rpc`, when given, is the floors' one RPC to the run's object, made once the body is read.
const bareRoute = (rpc) => async (c) => {
  if (!authenticate(c.req.raw)) return c.json({ kind: 'unauthenticated' }, 401);
  const body = await c.req.json();
  if (rpc) await rpc(c.env, c.req.param('runId'));
  if (body?.tool !== 'add') return c.json({ kind: 'unknown-tool' }, 404);
  const parsed = input.safeParse(body.args);
  if (!parsed.success) return c.json({ ok: false, error: { kind: 'args-invalid' } });
  const value = add(parsed.data);
  return c.json({ ok: true, value, content: JSON.stringify(value) });
};
app.post('/bare/runs/:runId/calls', bareRoute());

// The floor's Durable Object: the RPC costs what the platform charges for reaching a run, no more.
export class BenchFloor extends DurableObject {
  noop() {}
}

// One storage write of what a call's event holds, under a key that sorts by seq, as the run log writes.
export class BenchFloorWrite extends DurableObject {
  seq = 0;
  write(event) {
    this.seq++;
    this.ctx.storage.kv.put(`e:${String(this.seq).padStart(15, '0')}`, { ...event, seq: this.seq });
  }
}
const eventOf = (runId) => ({
  type: 'tool.finished',
  ts: Date.now(),
  data: { tool: 'add', durationMs: 0 },
  runId,
});

// The storage work the run route's contract asks of each call, by hand: its two events put under
// keys that sort by seq (the oldest trimmed once 1,000 are kept, as the run log keeps), and its
// settled record under its id (kept for the run's retention window). One RPC, as the door's.
export class BenchFloorLog extends DurableObject {
  seq = 0;
  call(callId, events, record) {
    const kv = this.ctx.storage.kv;
    for (const event of events) {
      const seq = ++this.seq;
      kv.put(`e:${String(seq).padStart(15, '0')}`, { ...event, seq, callId });
      if (seq > 1000) kv.delete(`e:${String(seq - 1000).padStart(15, '0')}`);
    }
    kv.put(`c:${callId}`, { ...record, toolCallId: callId });
  }
}
const callEvents = (runId) => [
  { type: 'tool.started', ts: Date.now(), runId, data: { tool: 'add', args: { a: 1, b: 2 } } },
  { type: 'tool.finished', ts: Date.now(), runId, data: { tool: 'add', durationMs: 0, ok: true } },
];
const settledRecord = () => ({
  tool: 'add',
  status: 'completed',
  startedAt: Date.now(),
  updatedAt: Date.now(),
  result: { ok: true, value: { sum: 3 }, content: '{"sum":3}' },
});

// The floors' one RPC each, to the run's object; /decompose times the same two.
const noopRpc = (env, runId) => env.FLOOR.get(env.FLOOR.idFromName(runId)).noop();
const writeRpc = (env, runId) => env.FLOOR_WRITE.get(env.FLOOR_WRITE.idFromName(runId)).write(eventOf(runId));
app.post('/floor/runs/:runId/calls', bareRoute(noopRpc));
const logRpc = (env, runId) =>
  env.FLOOR_LOG.get(env.FLOOR_LOG.idFromName(runId)).call(
    `call_${crypto.randomUUID()}`,
    callEvents(runId),
    settledRecord(),
  );
app.post('/floor-write/runs/:runId/calls', bareRoute(writeRpc));
app.post('/floor-log/runs/:runId/calls', bareRoute(logRpc));

// Sequential, so each figure is one call's time on the isolate's clock (which moves at I/O, as each
// RPC is); the three take turns in rounds, and the medians of the rounds come back, in µs per call.
app.get('/decompose', async (c) => {
  const runId = c.req.query('runId');
  const n = Number(c.req.query('n'));
  const runs = durableObjectRuns(c.env.RUNS);
  const caller = authenticate(new Request('http://bench', { headers: { authorization: 'Bearer bench' } }));
  let id = 0;
  const sides = {
    noopRpc: () => noopRpc(c.env, runId),
    writeRpc: () => writeRpc(c.env, runId),
    doorCall: () =>
      runs
        .get(runId)
        .streamCall(caller, { tool: 'add', args: { a: 1, b: 2 }, toolCallId: `decompose_${++id}` }, 'json'),
  };
  const rounds = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (let round = 0; round < 5; round++) {
    for (const [side, one] of Object.entries(sides)) {
      const started = Date.now();
      for (let i = 0; i < n; i++) await one();
      rounds[side].push(((Date.now() - started) * 1000) / n);
    }
  }
  return c.json(Object.fromEntries(Object.entries(rounds).map(([side, values]) => [side, median(values)])));
});

// (d) One payload per size, made once per isolate so neither side pays for filling it.
const payloads = new Map();
const payload = (size) => {
  if (!payloads.has(size)) payloads.set(size, new Uint8Array(size).fill(7));
  return payloads.get(size);
};
const scope = { tenant: 'bench', principal: 'bench', conversation: 'bench' };
// What the last /store request left behind, removed by /store/clean outside the timed requests.
let leftovers = [];

/** put then get through createKvR2ArtifactStore: R2 object + two KV index keys, digests checked. */
async function storePutGet(env, data) {
  const store = createKvR2ArtifactStore({ kv: env.KV, bucket: env.BUCKET });
  const meta = await store.put(scope, { kind: 'bench', data });
  const got = await store.get(scope, meta.ref);
  if (got.data.byteLength !== data.byteLength) throw new Error('The store returned the wrong bytes.');
  leftovers.push(() => store.delete(scope, meta.ref));
}

const hex = (buffer) =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The binding calls the store makes, by hand, with the same keys and metadata: put the R2 object
 * (the meta as JSON in its custom metadata, the content type, the sha-256 R2 checks the upload
 * against, so the digest is computed), then the KV key by ref (the meta as its value) and the KV
 * listing key (the meta as its metadata), in parallel; get reads the ref key, then the object's
 * bytes. Verifying the digest on get, and the copy in on put, is work the store adds, so the ratio
 * charges it to the store. With `mark`, as the store does: an empty R2 object marks the put as
 * pending before the bytes go, and is deleted once the KV keys are written, so a put cut off by a
 * crash leaves no partial artifact (the sweep finds the mark); without it, plain raw calls.
 */
async function rawPutGet(env, data, mark) {
  const ref = `art_${crypto.randomUUID().replaceAll('-', '').slice(0, 22)}`;
  const createdAt = Date.now();
  const meta = {
    ref,
    kind: 'bench',
    mediaType: 'application/octet-stream',
    bytes: data.byteLength,
    createdAt,
    digest: hex(await crypto.subtle.digest('SHA-256', data)),
    origin: {},
    encoding: 'binary',
  };
  const json = JSON.stringify(meta);
  const part = 'bench/bench/bench';
  const object = `raw/${part}/${ref}`;
  const refKey = `raw/ref/${part}/${ref}`;
  const listing = `raw/list/${part}/${createdAt.toString(16).padStart(13, '0')}.${ref}`;
  const pending = `raw/.pending/${part}/${ref}`;
  if (mark) {
    const putMark = JSON.stringify({ createdAt, startedAt: createdAt });
    await env.BUCKET.put(pending, new Uint8Array(0), { customMetadata: { 'toolctx-pending-put': putMark } });
  }
  await env.BUCKET.put(object, data, {
    customMetadata: { 'toolctx-artifact': json },
    httpMetadata: { contentType: meta.mediaType },
    sha256: meta.digest,
  });
  await Promise.all([env.KV.put(refKey, json, {}), env.KV.put(listing, json, { metadata: meta })]);
  if (mark) await env.BUCKET.delete(pending);
  const found = await env.KV.get(refKey, 'json');
  const stored = await env.BUCKET.get(`raw/${part}/${found.ref}`);
  const bytes = new Uint8Array(await stored.arrayBuffer());
  if (bytes.byteLength !== data.byteLength) throw new Error('R2 returned the wrong bytes.');
  leftovers.push(() =>
    Promise.all([env.BUCKET.delete(object), env.KV.delete(refKey), env.KV.delete(listing)]),
  );
}

app.post('/store', async (c) => {
  const size = Number(c.req.query('size'));
  const reps = Number(c.req.query('reps'));
  const which = c.req.query('which');
  const putGet = which === 'store' ? storePutGet : rawPutGet;
  const data = payload(size);
  for (let i = 0; i < reps; i++) await putGet(c.env, data, which === 'raw');
  return c.body(null, 204);
});

app.post('/store/clean', async (c) => {
  const cleanups = leftovers;
  leftovers = [];
  for (const cleanup of cleanups) await cleanup();
  return c.body(null, 204);
});

export default app;
