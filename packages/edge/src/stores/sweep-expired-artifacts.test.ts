import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../worker.js';
import { createKvR2ArtifactStore } from './kv-r2-artifact-store.js';
import { sweepExpiredArtifacts } from './sweep-expired-artifacts.js';

const scope = { tenant: 't', principal: 'p', conversation: 'sweep' };
const kv = env.ARTIFACT_META;
const bucket = env.ARTIFACTS;

const keysUnder = async (prefix: string) => (await kv.list({ prefix })).keys;
const objectsUnder = async (prefix: string) => (await bucket.list({ prefix })).objects.map((o) => o.key);

describe('sweepExpiredArtifacts', () => {
  it('deletes expired R2 objects and their KV listing without anyone touching the scope, and the caps stop counting them', async () => {
    const prefix = `sweep-${crypto.randomUUID()}/`;
    let now = Date.now();
    const limits = { maxCountPerScope: 2 };
    const store = createKvR2ArtifactStore({ kv, bucket, prefix, clock: () => now, limits });
    const brief = await store.put(scope, { kind: 'k', data: 'brief', ttlMs: 1_000 });
    const kept = await store.put(scope, { kind: 'k', data: 'kept' });
    await expect(store.put(scope, { kind: 'k', data: 'full' })).rejects.toMatchObject({
      info: { kind: 'quota-exceeded' },
    });

    // KV was told to drop the keys by itself: the listing at expiry, the ref key a day later.
    const [listing] = (await keysUnder(`${prefix}list/`)).filter((key) => key.name.endsWith(brief.ref));
    expect(listing?.expiration).toBeGreaterThanOrEqual(Math.ceil(brief.expiresAt! / 1_000));
    expect(listing?.expiration).toBeLessThanOrEqual(Math.ceil(Date.now() / 1_000) + 61);
    const [refKey] = (await keysUnder(`${prefix}ref/`)).filter((key) => key.name.endsWith(brief.ref));
    expect(refKey?.expiration).toBeGreaterThanOrEqual(Math.ceil(brief.expiresAt! / 1_000) + 86_400);
    expect((await keysUnder(`${prefix}ref/`)).find((key) => key.name.endsWith(kept.ref))?.expiration).toBe(
      undefined,
    );

    now += 1_000;
    expect(await sweepExpiredArtifacts({ kv, bucket, prefix, now })).toEqual({
      scanned: 2,
      deleted: 1,
      abandoned: 0,
    });
    expect(await objectsUnder(prefix)).toEqual([`${prefix}t/p/sweep/${kept.ref}`]);
    expect((await keysUnder(`${prefix}list/`)).map((key) => key.name)).toEqual([
      expect.stringMatching(new RegExp(`${kept.ref}$`)),
    ]);
    expect(await kv.get(`${prefix}ref/t/p/sweep/${brief.ref}`, 'json')).toEqual({ expired: true });
    expect(await store.wasExpired?.(scope, brief.ref)).toBe(true);
    // The freed slot is usable at once.
    const next = await store.put(scope, { kind: 'k', data: 'next' });
    expect((await store.list(scope)).artifacts.map((meta) => meta.ref)).toEqual([kept.ref, next.ref]);
    // A second sweep finds nothing more.
    expect(await sweepExpiredArtifacts({ kv, bucket, prefix, now })).toEqual({
      scanned: 2,
      deleted: 0,
      abandoned: 0,
    });
  });

  it('leaves R2 objects that are not artifacts alone', async () => {
    const prefix = `sweep-${crypto.randomUUID()}/`;
    await bucket.put(`${prefix}notes.txt`, 'not an artifact');
    expect(await sweepExpiredArtifacts({ kv, bucket, prefix })).toEqual({
      scanned: 0,
      deleted: 0,
      abandoned: 0,
    });
    expect(await objectsUnder(prefix)).toEqual([`${prefix}notes.txt`]);
  });

  it("the example Worker's scheduled handler sweeps the default prefix", async () => {
    const store = createKvR2ArtifactStore({ kv, bucket, clock: () => Date.now() - 10_000 });
    const meta = await store.put(scope, { kind: 'k', data: 'stale', ttlMs: 1_000 });
    const key = `artifacts/t/p/sweep/${meta.ref}`;
    expect(await bucket.head(key)).not.toBeNull();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '0 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await bucket.head(key)).toBeNull();
  });
});
