import type { ArtifactScope } from '../artifacts/types.js';
import type { CachePort } from '../cache/cache-port.js';
import { toolCacheKey } from '../cache/tool-cache-key.js';
import type { AnyTool } from '../tools/define-tool.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A cached result of a tool, if the cache has one. A backend failure is a miss. */
export async function cachedResult(cache: CachePort, key: string): Promise<{ value: unknown } | undefined> {
  const bytes = await cache.get(key);
  if (!bytes) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes)) as { value: unknown };
  } catch {
    return undefined;
  }
}

/** The cache key of a call: tool, canonical arguments and the run's scope, so tenants never share. */
export function cacheKeyFor(tool: AnyTool, args: unknown, scope: ArtifactScope): Promise<string> {
  return toolCacheKey({ toolName: tool.name, args, scope });
}

/** Keeps a successful result; values that are not JSON are not cached. */
export async function storeResult(
  cache: CachePort,
  key: string,
  value: unknown,
  ttlMs: number,
): Promise<void> {
  let text: string;
  try {
    text = JSON.stringify({ value });
  } catch {
    return;
  }
  await cache.set(key, encoder.encode(text), { ttlMs });
}
