export type { CachePort } from './cache-port.js';
export { checkCacheEntry, checkCacheKey } from './check-cache-args.js';
export { createMemoryCache, type MemoryCacheOptions } from './memory-cache.js';
export { createSafeCache } from './safe-cache.js';
export { toolCacheKey } from './tool-cache-key.js';
