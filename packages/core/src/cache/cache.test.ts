import { describe, expect, it } from 'vitest';
import type { CachePort } from './cache-port.js';
import { createMemoryCache } from './memory-cache.js';
import { createSafeCache } from './safe-cache.js';
import { toolCacheKey } from './tool-cache-key.js';

const scope = { tenant: 't', principal: 'p', conversation: 'c' };

describe('toolCacheKey', () => {
  it('ignores argument key order and is a fixed-size key', async () => {
    const one = await toolCacheKey({ toolName: 'w', args: { a: 1, b: { c: 2, d: 3 } }, scope });
    const two = await toolCacheKey({ toolName: 'w', args: { b: { d: 3, c: 2 }, a: 1 }, scope });
    expect(one).toBe(two);
    expect(one).toMatch(/^tc1_[0-9a-f]{64}$/);
  });

  it('differs by tool, args, and every scope field (tenants never share a key)', async () => {
    const keys = await Promise.all([
      toolCacheKey({ toolName: 'w', args: { a: 1 }, scope }),
      toolCacheKey({ toolName: 'x', args: { a: 1 }, scope }),
      toolCacheKey({ toolName: 'w', args: { a: 2 }, scope }),
      toolCacheKey({ toolName: 'w', args: { a: 1 }, scope: { ...scope, tenant: 'u' } }),
      toolCacheKey({ toolName: 'w', args: { a: 1 }, scope: { ...scope, principal: 'q' } }),
      toolCacheKey({ toolName: 'w', args: { a: 1 }, scope: { ...scope, conversation: 'd' } }),
      toolCacheKey({
        toolName: 'w',
        args: { a: 1 },
        scope: { tenant: 't/p', principal: '', conversation: 'c' },
      }),
    ]);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('createSafeCache', () => {
  const broken = (): CachePort & { calls: number } => {
    const port = {
      calls: 0,
      get: async () => {
        port.calls++;
        throw new Error('down');
      },
      set: async () => {
        port.calls++;
        throw new Error('down');
      },
      delete: async () => {
        port.calls++;
        throw new Error('down');
      },
    };
    return port;
  };

  it('turns failures into misses and reports only the first', async () => {
    const port = broken();
    const reports: string[] = [];
    const cache = createSafeCache(port, (_error, verb) => reports.push(verb));
    expect(await cache.get('k')).toBeNull();
    await cache.set('k', new Uint8Array([1]), { ttlMs: 10 });
    await cache.delete('k');
    expect(await cache.get('k')).toBeNull();
    expect(port.calls).toBe(4);
    expect(reports).toEqual(['get']);
  });

  it('survives a reporter that throws', async () => {
    const cache = createSafeCache(broken(), () => {
      throw new Error('reporter broke');
    });
    expect(await cache.get('k')).toBeNull();
    await expect(cache.set('k', new Uint8Array(), { ttlMs: 10 })).resolves.toBeUndefined();
  });

  it('passes a healthy port through unchanged and reports nothing', async () => {
    let reported = 0;
    const cache = createSafeCache(createMemoryCache(), () => reported++);
    await cache.set('k', new Uint8Array([7]), { ttlMs: 1_000 });
    expect(Array.from((await cache.get('k')) ?? [])).toEqual([7]);
    expect(reported).toBe(0);
  });
});
