import { describe, expect } from 'vitest';
import type { CachePort } from '../cache/cache-port.js';
import { createTestClock, registerCases, type SuiteCase, type TestClock } from './suite-cases.js';

/** Options of `describeCachePort`. */
export interface CachePortSuiteOptions {
  /** A fresh, empty cache per case; `clock` (epoch ms) must drive expiry. */
  create: (options: { clock: () => number }) => CachePort | Promise<CachePort>;
  /** Case titles this cache is known to fail: each must fail, or the suite fails. */
  expectedFailures?: string[];
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | null): string | null => (value ? new TextDecoder().decode(value) : null);
const hour = { ttlMs: 3_600_000 };

function cacheCases(fresh: () => Promise<{ cache: CachePort; clock: TestClock }>): SuiteCase[] {
  return [
    {
      title: 'get of an unknown key is a miss (null)',
      run: async () => {
        const { cache } = await fresh();
        expect(await cache.get('never-set')).toBeNull();
      },
    },
    {
      title: 'set then get round-trips the bytes',
      run: async () => {
        const { cache } = await fresh();
        await cache.set('k', bytes('value ✓'), hour);
        expect(text(await cache.get('k'))).toBe('value ✓');
      },
    },
    {
      title: 'binary values with all 256 byte values round-trip, and so does an empty value',
      run: async () => {
        const { cache } = await fresh();
        const all = Uint8Array.from({ length: 256 }, (_, i) => i);
        await cache.set('bin', all, hour);
        await cache.set('empty', new Uint8Array(0), hour);
        expect(Array.from((await cache.get('bin')) ?? [])).toEqual(Array.from(all));
        const empty = await cache.get('empty');
        expect(empty).toBeInstanceOf(Uint8Array);
        expect(empty?.byteLength).toBe(0);
      },
    },
    {
      title: 'set overwrites the previous value',
      run: async () => {
        const { cache } = await fresh();
        await cache.set('k', bytes('first'), hour);
        await cache.set('k', bytes('second'), hour);
        expect(text(await cache.get('k'))).toBe('second');
      },
    },
    {
      title: 'delete removes the entry; deleting a missing key is fine',
      run: async () => {
        const { cache } = await fresh();
        await cache.set('k', bytes('v'), hour);
        await cache.delete('k');
        expect(await cache.get('k')).toBeNull();
        await cache.delete('never-set');
        expect(await cache.get('never-set')).toBeNull();
      },
    },
    {
      title: 'an entry is a hit before its ttl and a miss from then on',
      run: async () => {
        const { cache, clock } = await fresh();
        await cache.set('k', bytes('v'), { ttlMs: 120_000 });
        clock.advance(119_000);
        expect(text(await cache.get('k'))).toBe('v');
        clock.advance(1_000);
        expect(await cache.get('k')).toBeNull();
      },
    },
    {
      title: 'a new set restarts the ttl',
      run: async () => {
        const { cache, clock } = await fresh();
        await cache.set('k', bytes('old'), { ttlMs: 120_000 });
        clock.advance(100_000);
        await cache.set('k', bytes('new'), { ttlMs: 120_000 });
        clock.advance(100_000);
        expect(text(await cache.get('k'))).toBe('new');
      },
    },
    {
      title: 'keys with hostile characters are kept apart and exact',
      run: async () => {
        const { cache } = await fresh();
        const keys = [
          'a/b',
          'a%2Fb',
          '../x',
          'x\u0000y',
          'é',
          'e\u0301',
          ' k',
          'k ',
          'κλειδί',
          '😀',
          '*',
          '?q=1#h',
          'a'.repeat(400),
        ];
        for (const key of keys) await cache.set(key, bytes(`v:${key}`), hour);
        for (const key of keys) expect(text(await cache.get(key)), JSON.stringify(key)).toBe(`v:${key}`);
      },
    },
    {
      title: 'keys that share a prefix are isolated (get, overwrite, delete)',
      run: async () => {
        const { cache } = await fresh();
        for (const key of ['tool', 'tool:', 'tool:1', 'tool:10']) await cache.set(key, bytes(key), hour);
        await cache.delete('tool:1');
        await cache.set('tool', bytes('changed'), hour);
        expect(await cache.get('tool:1')).toBeNull();
        expect(text(await cache.get('tool:10'))).toBe('tool:10');
        expect(text(await cache.get('tool:'))).toBe('tool:');
        expect(text(await cache.get('tool'))).toBe('changed');
        expect(await cache.get('too')).toBeNull();
      },
    },
    {
      title: 'values are copies: mutating after set or after get changes nothing stored',
      run: async () => {
        const { cache } = await fresh();
        const value = bytes('abc');
        await cache.set('k', value, hour);
        value[0] = 0;
        const got = (await cache.get('k'))!;
        got[1] = 0;
        expect(text(await cache.get('k'))).toBe('abc');
      },
    },
    {
      title: 'many keys live side by side',
      run: async () => {
        const { cache } = await fresh();
        for (let i = 0; i < 50; i++) await cache.set(`key-${i}`, bytes(String(i)), hour);
        for (let i = 0; i < 50; i++) expect(text(await cache.get(`key-${i}`))).toBe(String(i));
      },
    },
  ];
}

/**
 * Registers the `CachePort` conformance cases with vitest, through the raw contract with a fresh
 * cache per case: misses, bytes round-trip, overwrite, delete, ttl by the injected clock,
 * hostile keys, binary values, and isolation of keys that share a prefix.
 *
 * @example
 * ```ts
 * import { createMemoryCache } from '@toolctx/core/memory';
 * import { describeCachePort } from '@toolctx/core/testing';
 *
 * describeCachePort('memory', { create: ({ clock }) => createMemoryCache({ clock }) });
 * ```
 */
export function describeCachePort(name: string, options: CachePortSuiteOptions): void {
  const fresh = async () => {
    const clock = createTestClock();
    return { cache: await options.create({ clock: clock.now }), clock };
  };
  describe(`CachePort conformance: ${name}`, () => {
    registerCases(cacheCases(fresh), options.expectedFailures);
  });
}
