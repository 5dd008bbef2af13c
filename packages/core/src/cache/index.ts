export type { CachePort } from './cache-port.js';
export { createMemoryCache, type MemoryCacheOptions } from './memory-cache.js';
export { createSafeCache } from './safe-cache.js';
export { toolCacheKey } from './tool-cache-key.js';
