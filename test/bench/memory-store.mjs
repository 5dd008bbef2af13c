// (d) the memory artifact store against a raw Map doing the same put and get (a copy in, so the
// caller cannot change what was stored, and the bytes back out) and, as a second baseline, the
// same Map plus what the artifact contract itself demands: a sha-256 digest on put, verified on get.
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { interleaved } from './measure.mjs';

const scope = { tenant: 'bench', principal: 'bench', conversation: 'bench' };

const sha256 = (bytes) => crypto.subtle.digest('SHA-256', bytes);
const same = (a, b) => Buffer.from(a).equals(Buffer.from(b));

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
          if (raw.get(key).data.length !== bytes) throw new Error('The Map returned the wrong bytes.');
          raw.delete(key);
        },
        hashed: async () => {
          const key = crypto.randomUUID();
          const copy = data.slice();
          raw.set(key, { meta: { key, size: bytes, digest: await sha256(copy) }, data: copy });
          const got = raw.get(key);
          if (!same(await sha256(got.data), got.meta.digest)) throw new Error('The digest did not match.');
          raw.delete(key);
        },
      },
      bytes >= 1e7 ? 9 : 51,
    );
    rows.push({ bytes, ...times });
  }
  return rows;
}
