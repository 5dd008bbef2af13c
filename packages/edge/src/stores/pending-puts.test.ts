// What a Worker killed mid-put leaves, and the sweep that removes it, against Miniflare's real KV
// and R2 (a put's mark is an R2 object under `<prefix>.pending/`). A kill is a put that never goes on: a KV write or a stream that never settles, the put
// left unawaited. (Under `wrangler dev`, with the process group killed: test/worker/crash-mid-put.test.ts.)
import { env } from 'cloudflare:workers';
import type { ArtifactStore } from '@toolctx/core';
import { scopeKey } from '@toolctx/core/ports';
import { describe, expect, it } from 'vitest';
import { createKvR2ArtifactStore } from './kv-r2-artifact-store.js';
import { markOf, markPending, pendingKey } from './pending-puts.js';
import { PART_BYTES } from './r2-stream-io.js';
import { sweepExpiredArtifacts } from './sweep-expired-artifacts.js';

const scope = { tenant: 't', principal: 'p', conversation: 'crash' };
const part = scopeKey(scope);
const kv = env.ARTIFACT_META;
const bucket = env.ARTIFACTS;
const HOUR = 3_600_000;

/** Everything under `prefix`: R2 object keys (marks included), then KV key names. */
async function leftovers(prefix: string): Promise<string[]> {
  const objects = (await bucket.list({ prefix })).objects.map((object) => object.key);
  const keys = (await kv.list({ prefix })).keys.map((key) => key.name);
  return [...objects, ...keys];
}

/** The real KV binding, except that writes of the index (ref and listing keys) never settle. */
function kvStuckAtIndex(prefix: string): KVNamespace {
  return new Proxy(kv, {
    get(target, name) {
      if (name === 'put') {
        return (key: string, ...rest: [string, KVNamespacePutOptions?]) =>
          key.startsWith(`${prefix}ref/`) || key.startsWith(`${prefix}list/`)
            ? new Promise(() => {})
            : target.put(key, ...rest);
      }
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function until<T>(check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let tries = 0; tries < 500; tries++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the put never got that far');
}

const marksOf = async (prefix: string) =>
  (await bucket.list({ prefix: `${prefix}.pending/` })).objects.map((object) => object.key);

async function expectInvisible(store: ArtifactStore, ref: string) {
  expect((await store.list(scope)).artifacts).toEqual([]);
  expect(await store.head(scope, ref)).toBeNull();
  expect(await store.get(scope, ref)).toBeNull();
}

describe('a put cut short between R2 and KV', () => {
  it('put: the object nobody indexed is never listed or readable, and the sweep deletes it once its mark is abandonedAfterMs old, not before', async () => {
    const prefix = `crash-${crypto.randomUUID()}/`;
    let now = 1_700_000_000_000;
    const clock = () => now;
    const cut = createKvR2ArtifactStore({ kv: kvStuckAtIndex(prefix), bucket, prefix, clock });
    void cut.put(scope, { kind: 'k', data: 'x'.repeat(1_000) });
    const [mark] = await until(async () => {
      const marks = await marksOf(prefix);
      return marks.length > 0 && (await bucket.list({ prefix })).objects.length > 1 && marks;
    });
    const ref = mark!.slice(mark!.lastIndexOf('/') + 1);
    expect(await leftovers(prefix)).toEqual([pendingKey(prefix, part, ref), `${prefix}${part}/${ref}`]);
    const store = createKvR2ArtifactStore({ kv, bucket, prefix, clock });
    await expectInvisible(store, ref);

    now += HOUR - 1;
    expect(await sweepExpiredArtifacts({ kv, bucket, prefix, now, abandonedAfterMs: HOUR })).toEqual({
      scanned: 1,
      deleted: 0,
      abandoned: 0,
    });
    expect(await leftovers(prefix)).toHaveLength(2);
    now += 1;
    expect(await sweepExpiredArtifacts({ kv, bucket, prefix, now, abandonedAfterMs: HOUR })).toEqual({
      scanned: 0,
      deleted: 0,
      abandoned: 1,
    });
    expect(await leftovers(prefix)).toEqual([]);
    await expectInvisible(store, ref);
  });

  it('putStream: after its first part the multipart upload is open and no R2 listing shows it; the sweep aborts it', async () => {
    const prefix = `crash-${crypto.randomUUID()}/`;
    let now = 1_700_000_000_000;
    const clock = () => now;
    const store = createKvR2ArtifactStore({ kv, bucket, prefix, clock });
    let asked = 0;
    // One part's worth, then a stream that never goes on: the put hangs after its first part.
    const data = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          asked += 1;
          if (asked === 1) controller.enqueue(new Uint8Array(PART_BYTES + 1_000).fill(7));
          else return new Promise(() => {});
        },
      },
      { highWaterMark: 0 },
    );
    void store.putStream!(scope, { kind: 'k', data });
    // Asked again only once the first part is in R2.
    await until(async () => asked === 2);
    const [markKey] = await marksOf(prefix);
    const mark = markOf((await bucket.head(markKey!))!);
    const ref = markKey!.slice(markKey!.lastIndexOf('/') + 1);
    expect(mark?.uploadId).toEqual(expect.any(String));
    expect(await leftovers(prefix)).toEqual([markKey]);
    await expectInvisible(store, ref);
    const upload = bucket.resumeMultipartUpload(`${prefix}${part}/${ref}`, mark!.uploadId!);
    // Open: it takes another part.
    await expect(upload.uploadPart(3, new Uint8Array(1))).resolves.toMatchObject({ partNumber: 3 });

    now += 24 * HOUR;
    expect((await sweepExpiredArtifacts({ kv, bucket, prefix, now })).abandoned).toBe(1);
    await expect(upload.uploadPart(4, new Uint8Array(1))).rejects.toThrow();
    expect(await leftovers(prefix)).toEqual([]);
  });

  it('a put whose mark outlived it (its delete was lost) keeps its artifact; finished and refused puts leave no mark', async () => {
    const prefix = `crash-${crypto.randomUUID()}/`;
    let now = 1_700_000_000_000;
    const clock = () => now;
    const store = createKvR2ArtifactStore({ kv, bucket, prefix, clock, limits: { maxCountPerScope: 2 } });
    const small = await store.put(scope, { kind: 'k', data: 'kept' });
    await expect(
      store.putStream!(scope, { kind: 'k', data: new Blob(['x']).stream(), digest: '0'.repeat(64) }),
    ).rejects.toMatchObject({ info: { kind: 'integrity-failed' } });
    const big = new Uint8Array(PART_BYTES + 10).fill(1);
    const streamed = await store.putStream!(scope, { kind: 'k', data: new Blob([big]).stream() });
    await expect(store.put(scope, { kind: 'k', data: 'over the cap' })).rejects.toMatchObject({
      info: { kind: 'quota-exceeded' },
    });
    expect(await marksOf(prefix)).toEqual([]);

    await markPending(bucket, pendingKey(prefix, part, small.ref), small.ref, {
      createdAt: small.createdAt,
      startedAt: now,
    });
    now += 24 * HOUR;
    expect(await sweepExpiredArtifacts({ kv, bucket, prefix, now })).toEqual({
      scanned: 2,
      deleted: 0,
      abandoned: 0,
    });
    expect(await marksOf(prefix)).toEqual([]);
    expect((await store.get(scope, small.ref))?.data).toBe('kept');
    const refs = (await store.list(scope)).artifacts.map((meta) => meta.ref);
    expect(refs.sort()).toEqual([small.ref, streamed.ref].sort());
  });

  it('a put writes its mark before its bytes reach R2 and deletes it after its index: one R2 write and one delete more, no more KV writes', async () => {
    const prefix = `crash-${crypto.randomUUID()}/`;
    const calls: string[] = [];
    const name = (key: string) => {
      const first = key.slice(prefix.length).split('/')[0];
      return first === 'ref' || first === 'list' ? first : first === '.pending' ? 'mark' : 'object';
    };
    const watch = <T extends object>(target: T, label: string, methods: string[]): T =>
      new Proxy(target, {
        get(inner, field) {
          const value = Reflect.get(inner, field);
          if (typeof value !== 'function') return value;
          if (!methods.includes(String(field))) return value.bind(inner);
          return (key: string, ...rest: unknown[]) => {
            calls.push(`${label}.${String(field)} ${name(key)}`);
            return value.call(inner, key, ...rest);
          };
        },
      });
    const store = createKvR2ArtifactStore({
      kv: watch(kv, 'kv', ['put', 'delete']),
      bucket: watch(bucket, 'r2', ['put', 'delete', 'createMultipartUpload']),
      prefix,
    });
    await store.put(scope, { kind: 'k', data: 'x' });
    // The two index writes run together, in either order.
    const sorted = (list: string[]) => [...list.slice(0, 2), ...list.slice(2, 4).sort(), ...list.slice(4)];
    const index = ['kv.put list', 'kv.put ref'];
    expect(sorted(calls)).toEqual(['r2.put mark', 'r2.put object', ...index, 'r2.delete mark']);
    calls.length = 0;
    await store.putStream!(scope, { kind: 'k', data: new Blob([new Uint8Array(PART_BYTES + 1)]).stream() });
    expect(sorted(calls)).toEqual([
      'r2.createMultipartUpload object',
      'r2.put mark',
      ...index,
      'r2.delete mark',
    ]);
  });

  it('a mark R2 refuses stops the put before its bytes: an internal error, nothing stored', async () => {
    const prefix = `crash-${crypto.randomUUID()}/`;
    const refusing = new Proxy(bucket, {
      get(target, field) {
        if (field === 'put') {
          return (key: string, ...rest: [ArrayBuffer | Uint8Array, R2PutOptions?]) =>
            key.startsWith(`${prefix}.pending/`)
              ? Promise.reject(new Error('injected R2 put failure'))
              : target.put(key, ...rest);
        }
        const value = Reflect.get(target, field);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = createKvR2ArtifactStore({ kv, bucket: refusing, prefix });
    await expect(store.put(scope, { kind: 'k', data: 'x' })).rejects.toThrow(/nothing was stored/);
    const data = new Blob([new Uint8Array(PART_BYTES + 1)]).stream();
    await expect(store.putStream!(scope, { kind: 'k', data })).rejects.toThrow(/nothing was stored/);
    expect(await leftovers(prefix)).toEqual([]);
  });
});
