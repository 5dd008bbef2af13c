import { describeArtifactStore } from '../testing/index.js';
import { decodeArtifactData } from './encoding.js';
import { createMemoryArtifactStore } from './memory-store.js';
import { scopeKey } from './scope-key.js';
import type { ArtifactScope, ArtifactStore } from './types.js';

const blobsOf = new WeakMap<ArtifactStore, Map<string, Uint8Array>>();

function createWithBlobs(clock: () => number, limits = {}): ArtifactStore {
  const blobs = new Map<string, Uint8Array>();
  const store = createMemoryArtifactStore({ clock, limits, blobs });
  blobsOf.set(store, blobs);
  return store;
}

async function corrupt(store: ArtifactStore, scope: ArtifactScope, ref: string): Promise<void> {
  const bytes = blobsOf.get(store)?.get(`${scopeKey(scope)}/${ref}`);
  if (!bytes || bytes.byteLength === 0) throw new Error(`no stored bytes for ${ref}`);
  bytes[0] = bytes[0]! ^ 0xff;
}

describeArtifactStore('memory', {
  create: ({ clock }) => createWithBlobs(clock),
  capabilities: { streaming: true },
  corrupt,
});

const retention = { maxBytesPerScope: 200_000, maxCountPerScope: 120, maxArtifactBytes: 150_000 };
describeArtifactStore('memory with retention caps', {
  create: ({ clock }) => createWithBlobs(clock, retention),
  capabilities: { streaming: true, retention },
});

// The suite's own branches: a store that declares no streaming (and hides the verbs), and a
// store that skips the digest check, which the suite must catch (listed as an expected failure).
describeArtifactStore('memory without streaming', {
  create: ({ clock }) => {
    const store = createMemoryArtifactStore({ clock });
    return {
      ...store,
      capabilities: { ...store.capabilities, streaming: false },
      putStream: undefined,
      getStream: undefined,
    };
  },
  capabilities: { streaming: false },
});

describeArtifactStore('memory that does not verify digests (a deliberately broken store)', {
  create: ({ clock }) => {
    const store = createWithBlobs(clock);
    const blobs = blobsOf.get(store)!;
    const broken: ArtifactStore = {
      ...store,
      async get(scope, ref) {
        const meta = await store.head(scope, ref);
        const bytes = meta && blobs.get(`${scopeKey(scope)}/${ref}`);
        return meta && bytes ? { meta, data: decodeArtifactData(meta.encoding, bytes.slice()) } : null;
      },
    };
    blobsOf.set(broken, blobs);
    return broken;
  },
  capabilities: { streaming: true },
  corrupt,
  expectedFailures: ['a corrupted stored byte makes get throw an integrity-failed error'],
});
