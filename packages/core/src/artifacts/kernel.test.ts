import { describe, expect, it } from 'vitest';
import { describeArtifactStore } from '../testing/index.js';
import type { ArtifactDriver } from './driver.js';
import { createArtifactStore } from './kernel.js';
import type { ArtifactMeta } from './types.js';

// The smallest driver the kernel takes (the one in ArtifactDriver's doc comment): rows in Maps,
// no expiry sweep, no streaming. The whole suite passes on the kernel's steps alone.
type Row = { meta: ArtifactMeta; bytes: Uint8Array; seq: number };

function mapDriver(): ArtifactDriver & { rows: Map<string, Map<string, Row>> } {
  const rows = new Map<string, Map<string, Row>>();
  const rowsOf = (scope: string) => rows.get(scope) ?? rows.set(scope, new Map()).get(scope)!;
  let seq = 0;
  return {
    rows,
    async put(scope, meta, bytes, admission) {
      const mine = rowsOf(scope);
      const live = [...mine.values()].filter((row) => !(row.meta.expiresAt! <= admission.now));
      const held = live.reduce((sum, row) => sum + row.meta.bytes, 0);
      admission.check({ count: live.length, bytes: held }, meta.bytes);
      mine.set(meta.ref, { meta: structuredClone(meta), bytes, seq: ++seq });
    },
    async read(scope, ref, withBytes) {
      const row = rowsOf(scope).get(ref);
      if (!row) return null;
      const meta = structuredClone(row.meta);
      return withBytes ? { meta, bytes: row.bytes.slice() } : { meta };
    },
    async remove(scope, ref) {
      const row = rowsOf(scope).get(ref);
      rowsOf(scope).delete(ref);
      return row ? structuredClone(row.meta) : null;
    },
    async list(scope, { after = '0', limit }) {
      if (!/^\d+$/.test(after)) return null;
      const rest = [...rowsOf(scope).values()].filter((row) => row.seq > Number(after));
      const page = rest.slice(0, limit);
      const metas = page.map((row) => structuredClone(row.meta));
      return rest.length > limit ? { metas, next: String(page.at(-1)!.seq) } : { metas };
    },
  };
}

const drivers = new WeakMap<object, ReturnType<typeof mapDriver>>();
const create = (clock: () => number, limits = {}) => {
  const driver = mapDriver();
  const store = createArtifactStore(driver, { clock, limits });
  drivers.set(store, driver);
  return store;
};

describeArtifactStore('kernel over a Map driver', {
  create: ({ clock }) => create(clock),
  capabilities: { streaming: true },
  corrupt: async (store, _scope, ref) => {
    for (const scope of drivers.get(store)!.rows.values()) {
      const row = scope.get(ref);
      if (row) row.bytes[0] = row.bytes[0]! ^ 0xff;
    }
  },
});

const retention = { maxBytesPerScope: 200_000, maxCountPerScope: 120, maxArtifactBytes: 150_000 };
describeArtifactStore('kernel over a Map driver, with retention caps', {
  create: ({ clock }) => create(clock, retention),
  capabilities: { streaming: true, retention },
});

describe('createArtifactStore', () => {
  it('hands the driver the scope key, and an admission that refuses past a cap', async () => {
    const driver = mapDriver();
    const store = createArtifactStore(driver, { limits: { maxCountPerScope: 1 } });
    await store.put({ tenant: 'a/b', principal: 'p', conversation: '' }, { kind: 'k', data: 'x' });
    expect([...driver.rows.keys()]).toEqual(['a%2Fb/p/~']);
    await expect(
      store.put({ tenant: 'a/b', principal: 'p', conversation: '' }, { kind: 'k', data: 'y' }),
    ).rejects.toMatchObject({ kind: 'quota-exceeded' });
  });

  it('a position the driver does not know is refused as a cursor this store did not make', async () => {
    const store = createArtifactStore(mapDriver());
    const scope = { tenant: 't', principal: 'p', conversation: 'c' };
    // `cur_` + base64url('x'): a well-formed cursor whose position no Map driver made.
    await expect(store.list(scope, { cursor: 'cur_eA' })).rejects.toThrow(
      /"cur_eA" was not made by this store/,
    );
  });
});
