import { describeCachePort } from '../testing/index.js';
import { createMemoryCache } from './memory-cache.js';

describeCachePort('memory', { create: ({ clock }) => createMemoryCache({ clock }) });

// A cache that forgets every value: the suite must notice (its cases are listed as expected failures).
describeCachePort('a cache that never stores (deliberately broken)', {
  create: () => ({ get: async () => null, set: async () => {}, delete: async () => {} }),
  expectedFailures: [
    'set then get round-trips the bytes',
    'binary values with all 256 byte values round-trip, and so does an empty value',
    'set overwrites the previous value',
    'an entry is a hit before its ttl and a miss from then on',
    'a new set restarts the ttl',
    'keys with hostile characters are kept apart and exact',
    'keys that share a prefix are isolated (get, overwrite, delete)',
    'values are copies: mutating after set or after get changes nothing stored',
    'many keys live side by side',
  ],
});
