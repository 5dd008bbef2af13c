import type { CachePort } from './cache-port.js';

/**
 * Wraps a {@link CachePort} so that a backend failure never fails a tool call: a failing `get`
 * is a miss, a failing `set` or `delete` is skipped. `onFailure` hears about the first failure
 * only (once per wrapped port), so a broken backend is reported without flooding the log; it
 * never throws into the caller either.
 */
export function createSafeCache(
  port: CachePort,
  onFailure: (error: unknown, verb: 'get' | 'set' | 'delete') => void,
): CachePort {
  let reported = false;
  const failed = (error: unknown, verb: 'get' | 'set' | 'delete'): void => {
    if (reported) return;
    reported = true;
    try {
      onFailure(error, verb);
    } catch {
      // A failing reporter must not turn a cache miss into a failed call.
    }
  };
  return {
    async get(key) {
      try {
        return await port.get(key);
      } catch (error) {
        failed(error, 'get');
        return null;
      }
    },
    async set(key, value, options) {
      try {
        await port.set(key, value, options);
      } catch (error) {
        failed(error, 'set');
      }
    },
    async delete(key) {
      try {
        await port.delete(key);
      } catch (error) {
        failed(error, 'delete');
      }
    },
  };
}
