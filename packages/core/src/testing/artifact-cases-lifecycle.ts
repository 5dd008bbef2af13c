import { expect } from 'vitest';
import { type ArtifactCases, listAll, scopeA, scopeB } from './artifact-suite-kit.js';
import type { SuiteCase } from './suite-cases.js';
import { expectToolctxError } from './suite-cases.js';

export const expiryCases: ArtifactCases = ({ fresh }) => [
  {
    title: 'expiresAt is createdAt + ttlMs and the artifact is visible until then',
    run: async () => {
      const { store, clock } = await fresh();
      const meta = await store.put(scopeA, { kind: 'k', data: 'x', ttlMs: 60_000 });
      expect(meta.expiresAt).toBe(meta.createdAt + 60_000);
      clock.advance(59_000);
      expect(await store.head(scopeA, meta.ref)).toEqual(meta);
      expect((await store.get(scopeA, meta.ref))?.data).toBe('x');
    },
  },
  {
    title: 'after its ttl an artifact is invisible to head, get and list',
    run: async () => {
      const { store, clock } = await fresh();
      const short = await store.put(scopeA, { kind: 'k', data: 'short', ttlMs: 1_000 });
      const long = await store.put(scopeA, { kind: 'k', data: 'long', ttlMs: 100_000 });
      const forever = await store.put(scopeA, { kind: 'k', data: 'forever' });
      clock.advance(1_000);
      expect(await store.head(scopeA, short.ref)).toBeNull();
      expect(await store.get(scopeA, short.ref)).toBeNull();
      expect((await listAll(store, scopeA)).sort()).toEqual([long.ref, forever.ref].sort());
      clock.advance(100_000);
      expect(await listAll(store, scopeA)).toEqual([forever.ref]);
    },
  },
  {
    title: 'delete of an expired artifact answers false',
    run: async () => {
      const { store, clock } = await fresh();
      const meta = await store.put(scopeA, { kind: 'k', data: 'x', ttlMs: 10 });
      clock.advance(10);
      expect(await store.delete(scopeA, meta.ref)).toBe(false);
    },
  },
  {
    title: 'a ttl that is not a positive number is refused',
    run: async () => {
      const { store } = await fresh();
      for (const ttlMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expectToolctxError(
          () => store.put(scopeA, { kind: 'k', data: 'x', ttlMs }),
          undefined,
          `ttl ${ttlMs}`,
        );
      }
      expect(await listAll(store, scopeA)).toEqual([]);
    },
  },
];

export const retentionCases: ArtifactCases = ({ fresh, options }) => {
  const limits = options.capabilities.retention;
  const titles = [
    'retention: a put over the per-scope byte cap is refused (quota-exceeded) and stores nothing',
    'retention: a put over the per-scope count cap is refused (quota-exceeded) and stores nothing',
    'retention: a single payload over maxArtifactBytes is refused (quota-exceeded)',
    'retention: a full scope does not limit another scope',
  ];
  if (!limits) {
    return titles.map((title) => ({
      title: `${title} — n/a: no retention declared`,
      run: async () => {
        const { store } = await fresh();
        expect(store.capabilities).toBeDefined();
      },
    }));
  }
  const chunk = (size: number) => 'x'.repeat(size);
  const cases: SuiteCase[] = [
    {
      title: titles[0]!,
      run: async () => {
        const { store } = await fresh();
        const size = Math.min(limits.maxArtifactBytes, Math.ceil(limits.maxBytesPerScope / 2) + 1);
        expect(2 * size > limits.maxBytesPerScope, 'configure maxArtifactBytes > maxBytesPerScope / 2').toBe(
          true,
        );
        const first = await store.put(scopeA, { kind: 'k', data: chunk(size) });
        await expectToolctxError(() => store.put(scopeA, { kind: 'k', data: chunk(size) }), 'quota-exceeded');
        expect(await listAll(store, scopeA)).toEqual([first.ref]);
      },
    },
    {
      title: titles[1]!,
      run: async () => {
        const { store } = await fresh();
        for (let i = 0; i < limits.maxCountPerScope; i++) await store.put(scopeA, { kind: 'k', data: '' });
        await expectToolctxError(() => store.put(scopeA, { kind: 'k', data: '' }), 'quota-exceeded');
        expect((await listAll(store, scopeA)).length).toBe(limits.maxCountPerScope);
      },
    },
    {
      title: titles[2]!,
      run: async () => {
        const { store } = await fresh();
        const tooBig = new Uint8Array(limits.maxArtifactBytes + 1);
        await expectToolctxError(() => store.put(scopeA, { kind: 'k', data: tooBig }), 'quota-exceeded');
        expect(await listAll(store, scopeA)).toEqual([]);
        const exact = await store.put(scopeA, { kind: 'k', data: new Uint8Array(limits.maxArtifactBytes) });
        expect(exact.bytes).toBe(limits.maxArtifactBytes);
      },
    },
    {
      title: titles[3]!,
      run: async () => {
        const { store } = await fresh();
        for (let i = 0; i < limits.maxCountPerScope; i++) await store.put(scopeA, { kind: 'k', data: '' });
        const other = await store.put(scopeB, { kind: 'k', data: 'fine' });
        expect((await store.get(scopeB, other.ref))?.data).toBe('fine');
      },
    },
  ];
  return cases;
};

export const integrityCases: ArtifactCases = ({ fresh, options }) => {
  const title = 'a corrupted stored byte makes get throw an integrity-failed error';
  const { corrupt } = options;
  if (!corrupt) {
    return [
      {
        title: `${title} — n/a: no corrupt hook`,
        run: async () => {
          const { store } = await fresh();
          expect(typeof store.get).toBe('function');
        },
      },
    ];
  }
  return [
    {
      title,
      run: async () => {
        const { store } = await fresh();
        const meta = await store.put(scopeA, { kind: 'k', data: 'precious bytes' });
        await corrupt(store, scopeA, meta.ref);
        await expectToolctxError(() => store.get(scopeA, meta.ref), 'integrity-failed');
      },
    },
  ];
};
