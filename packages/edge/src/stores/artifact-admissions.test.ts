import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { ArtifactMeta, ArtifactStore } from '@toolctx/core';
import { describeArtifactStore } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createKvR2ArtifactStore, type KvR2ArtifactStoreOptions } from './kv-r2-artifact-store.js';

// How far the KV+R2 store's caps hold under concurrent puts, measured in workerd. Several store
// instances sharing one prefix stand for several isolates putting into one scope at once: each
// keeps its own admission ledger unless they share the ArtifactAdmissions Durable Object.
const scope = { tenant: 't', principal: 'p', conversation: 'storm' };

const storesSharing = (count: number, extra: Partial<KvR2ArtifactStoreOptions>): ArtifactStore[] => {
  const prefix = `admissions-${crypto.randomUUID()}/`;
  return Array.from({ length: count }, () =>
    createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS, prefix, ...extra }),
  );
};

/** Fires `puts` concurrent puts spread over `stores`; the admitted metas, every refusal a quota-exceeded. */
async function storm(stores: ArtifactStore[], puts: number, size = 1): Promise<ArtifactMeta[]> {
  const settled = await Promise.allSettled(
    Array.from({ length: puts }, (_, i) =>
      stores[i % stores.length]!.put(scope, { kind: 'k', data: `${i}`.padEnd(size, '.') }),
    ),
  );
  const refused = settled.filter((result) => result.status === 'rejected');
  for (const { reason } of refused) expect((reason as { kind?: string }).kind).toBe('quota-exceeded');
  return settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}

const cap = { maxCountPerScope: 5 };
const bytesCap = { maxBytesPerScope: 50_000 };

describe('KV+R2 caps under concurrent puts (N = cap + 20)', () => {
  it('one store instance: the count cap holds exactly', async () => {
    expect((await storm(storesSharing(1, { limits: cap }), 25)).length).toBe(5);
  });

  it('one store instance: 4 × 19 KB under a 50 KB byte cap admits 2', async () => {
    const admitted = await storm(storesSharing(1, { limits: bytesCap }), 4, 19_000);
    expect(admitted.length).toBe(2);
  });

  it('k instances without admissions: at most k × the cap (the documented overshoot)', async () => {
    for (const k of [2, 4]) {
      const stores = storesSharing(k, { limits: cap });
      const admitted = (await storm(stores, 5 + 20 * k)).length;
      console.log(
        `KV+R2 without admissions: ${k} instances, ${5 + 20 * k} concurrent puts, cap 5 → ${admitted} admitted`,
      );
      expect(admitted).toBeGreaterThanOrEqual(5);
      expect(admitted).toBeLessThanOrEqual(k * 5);
      const listed = await stores[0]!.list(scope);
      expect(listed.artifacts.length).toBe(admitted);
    }
  });

  it('k instances sharing ArtifactAdmissions: the caps hold exactly', async () => {
    const stores = storesSharing(4, { limits: { ...cap, ...bytesCap }, admissions: env.ADMISSIONS });
    const admitted = await storm(stores, 85);
    expect(admitted.length).toBe(5);
    expect((await stores[1]!.list(scope)).artifacts.map((meta) => meta.ref).sort()).toEqual(
      admitted.map((meta) => meta.ref).sort(),
    );
    // A delete through one instance frees the slot for all of them.
    expect(await stores[2]!.delete(scope, admitted[0]!.ref)).toBe(true);
    expect((await storm(stores, 8)).length).toBe(1);
  });

  it('an ArtifactAdmissions object keeps nothing once its admissions are older than two minutes', async () => {
    const prefix = `admissions-${crypto.randomUUID()}/`;
    const store = createKvR2ArtifactStore({
      kv: env.ARTIFACT_META,
      bucket: env.ARTIFACTS,
      prefix,
      limits: cap,
      admissions: env.ADMISSIONS,
      clock: () => Date.now() - 150_000,
    });
    await store.put(scope, { kind: 'k', data: 'x' });
    const stub = env.ADMISSIONS.get(env.ADMISSIONS.idFromName(`${prefix}t/p/storm`));
    const stored = () =>
      runInDurableObject(stub, async (_object, state) => (await state.storage.list()).size);
    expect(await stored()).toBe(1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stored()).toBe(0);
    // The listing still counts the artifact.
    expect((await storm([store], 10)).length).toBe(4);
  });

  it('k instances sharing ArtifactAdmissions: 4 × 19 KB under a 50 KB byte cap admits 2', async () => {
    const stores = storesSharing(4, { limits: bytesCap, admissions: env.ADMISSIONS });
    expect((await storm(stores, 4, 19_000)).length).toBe(2);
  });
});

// The whole conformance suite once more, admitting through the Durable Object.
let suiteStores = 0;
const retention = { maxBytesPerScope: 200_000, maxCountPerScope: 120, maxArtifactBytes: 150_000 };
describeArtifactStore('KV + R2 in workerd, with retention caps admitted by ArtifactAdmissions', {
  create: ({ clock }) =>
    createKvR2ArtifactStore({
      kv: env.ARTIFACT_META,
      bucket: env.ARTIFACTS,
      prefix: `suite-admissions-${++suiteStores}-${crypto.randomUUID()}/`,
      clock,
      limits: retention,
      admissions: env.ADMISSIONS,
    }),
  capabilities: { streaming: true, retention },
});

// And once with puts alternating between two instances without admissions, as two isolates
// would: the suite holds them to the declared overshoot, one more cap's worth.
describeArtifactStore('KV + R2 in workerd, puts from two isolates without admissions', {
  create: ({ clock }) => {
    const prefix = `suite-isolates-${++suiteStores}-${crypto.randomUUID()}/`;
    const [first, second] = [0, 1].map(() =>
      createKvR2ArtifactStore({
        kv: env.ARTIFACT_META,
        bucket: env.ARTIFACTS,
        prefix,
        clock,
        limits: retention,
      }),
    ) as [ArtifactStore, ArtifactStore];
    let turn = 0;
    const next = () => (turn++ % 2 === 0 ? first : second);
    return {
      ...first,
      put: (target, input) => next().put(target, input),
      putStream: (target, input) => next().putStream!(target, input),
    };
  },
  capabilities: { streaming: true, retention: { ...retention, overshoot: { count: 120, bytes: 200_000 } } },
});
