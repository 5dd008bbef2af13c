// (d) the memory artifact store against a raw Map doing the same put and get (a copy in, so the
// caller cannot change what was stored, and the bytes back out).
import { createMemoryArtifactStore } from '@toolctx/core';
import { median } from './measure.mjs';

const scope = { tenant: 'bench', principal: 'bench', conversation: 'bench' };

async function msPerPutGet(body, repeats) {
  await body();
  const samples = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    await body();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

export async function memoryStore(sizes) {
  const rows = [];
  for (const bytes of sizes) {
    const data = new Uint8Array(bytes).fill(7);
    const store = createMemoryArtifactStore();
    const raw = new Map();
    const repeats = bytes >= 1e7 ? 9 : 51;
    const store_ = await msPerPutGet(async () => {
      const meta = await store.put(scope, { kind: 'bench', data });
      const got = await store.get(scope, meta.ref);
      if (got.data.length !== bytes) throw new Error('The memory store returned the wrong bytes.');
      await store.delete(scope, meta.ref);
    }, repeats);
    const raw_ = await msPerPutGet(async () => {
      const key = crypto.randomUUID();
      raw.set(key, { meta: { key, size: bytes, createdAt: Date.now() }, data: data.slice() });
      if (raw.get(key).data.length !== bytes) throw new Error('The Map returned the wrong bytes.');
      raw.delete(key);
    }, repeats);
    rows.push({ bytes, store: store_, raw: raw_ });
  }
  return rows;
}
