// (d) the memory artifact store against a raw Map doing the same work: a copy in (so the caller
// cannot change what was stored), a sha-256 digest of it kept as hex beside a small meta record,
// then on get a copy out (so the reader cannot change it either) whose digest is checked. The
// `raw` side, Map + copy alone, shows what the digests themselves cost.
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { interleaved } from './measure.mjs';

const scope = { tenant: 'bench', principal: 'bench', conversation: 'bench' };

const sha256Hex = async (bytes) => Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');

export async function memoryStore(sizes) {
  const rows = [];
  for (const bytes of sizes) {
    const data = new Uint8Array(bytes).fill(7);
    const store = createMemoryArtifactStore();
    const raw = new Map();
    const times = await interleaved(
      {
        store: async () => {
          const meta = await store.put(scope, { kind: 'bench', data });
          const got = await store.get(scope, meta.ref);
          if (got.data.length !== bytes) throw new Error('The memory store returned the wrong bytes.');
          await store.delete(scope, meta.ref);
        },
        raw: async () => {
          const key = crypto.randomUUID();
          raw.set(key, { meta: { key, size: bytes, createdAt: Date.now() }, data: data.slice() });
          if (raw.get(key).data.slice().length !== bytes)
            throw new Error('The Map returned the wrong bytes.');
          raw.delete(key);
        },
        hashed: async () => {
          const key = crypto.randomUUID();
          const copy = data.slice();
          raw.set(key, {
            meta: { key, size: bytes, createdAt: Date.now(), digest: await sha256Hex(copy) },
            data: copy,
          });
          const got = raw.get(key);
          const out = got.data.slice();
          if ((await sha256Hex(out)) !== got.meta.digest) throw new Error('The digest did not match.');
          if (out.length !== bytes) throw new Error('The Map returned the wrong bytes.');
          raw.delete(key);
        },
      },
      bytes >= 1e7 ? 15 : 101,
      { warmup: bytes < 1 << 20 ? 500 : 1 },
    );
    rows.push({ bytes, ...times });
  }
  return rows;
}
