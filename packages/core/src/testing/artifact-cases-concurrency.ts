import { expect } from 'vitest';
import type { ArtifactMeta, ArtifactStore } from '../artifacts/types.js';
import { type ArtifactCases, listAll, type SuiteRetention, scopeA } from './artifact-suite-kit.js';
import { errorKind, type SuiteCase } from './suite-cases.js';

// Puts fired past a cap at once: enough that a store admitting on a stale view of the scope
// lets through many more than the cap, so an overshoot cannot hide in the noise.
const PAST_THE_CAP = 20;

/**
 * Fires `payloads` as concurrent puts into scopeA and checks what came back: every refusal a
 * `quota-exceeded` error, and `list` showing exactly the admitted artifacts (a refused put leaves
 * nothing behind) beside the `held` refs already there.
 */
async function storm(store: ArtifactStore, payloads: string[], held: string[] = []): Promise<ArtifactMeta[]> {
  const settled = await Promise.allSettled(payloads.map((data) => store.put(scopeA, { kind: 'k', data })));
  const admitted: ArtifactMeta[] = [];
  for (const result of settled) {
    if (result.status === 'fulfilled') admitted.push(result.value);
    else
      expect(errorKind(result.reason), `a refused put threw ${String(result.reason)}`).toBe('quota-exceeded');
  }
  const listed = await listAll(store, scopeA);
  expect([...listed].sort(), 'list shows exactly the admitted puts').toEqual(
    [...held, ...admitted.map((meta) => meta.ref)].sort(),
  );
  return admitted;
}

/** Exactly `cap` when the store declares no overshoot, else between `cap` and `cap + overshoot`. */
function expectWithin(actual: number, cap: number, overshoot: number | undefined, what: string): void {
  if (overshoot === undefined) {
    expect(actual, `${what}: the cap must hold exactly`).toBe(cap);
    return;
  }
  expect(actual, `${what}: at least the cap`).toBeGreaterThanOrEqual(cap);
  expect(actual, `${what}: at most the cap plus the declared overshoot`).toBeLessThanOrEqual(cap + overshoot);
}

const titles = [
  'concurrency: count cap + 20 concurrent puts admit exactly the cap (or within the declared overshoot), the rest refused with quota-exceeded',
  'concurrency: concurrent large puts past the byte cap stay within it (or within the declared overshoot)',
  'concurrency: after a storm, a delete frees exactly one slot',
];

/**
 * Caps under concurrent puts: the count and byte caps read from `capabilities.retention` hold
 * exactly under any interleaving, or within `retention.overshoot` where the store declares one;
 * refused puts reject with `quota-exceeded` and leave nothing behind.
 */
export const concurrencyCases: ArtifactCases = ({ fresh, options }) => {
  const limits: SuiteRetention | undefined = options.capabilities.retention;
  if (!limits) {
    return titles.map((title) => ({
      title: `${title} — n/a: no retention declared`,
      run: async () => {
        const { store } = await fresh();
        expect(store.capabilities).toBeDefined();
      },
    }));
  }
  const cap = limits.maxCountPerScope;
  // Four fit under the byte cap, a fifth does not; twice as many as fit are fired at once.
  const large = Math.min(limits.maxArtifactBytes, Math.floor(limits.maxBytesPerScope / 4));
  const fit = Math.floor(limits.maxBytesPerScope / large);
  const cases: SuiteCase[] = [
    {
      title: titles[0]!,
      run: async () => {
        const { store } = await fresh();
        const admitted = await storm(
          store,
          Array.from({ length: cap + PAST_THE_CAP }, (_, i) => `c${i}`),
        );
        expectWithin(admitted.length, cap, limits.overshoot?.count, 'admitted puts');
      },
    },
    {
      title: titles[1]!,
      run: async () => {
        const { store } = await fresh();
        const admitted = await storm(
          store,
          Array.from({ length: 2 * fit }, (_, i) => `${i}`.padEnd(large, 'x')),
        );
        const bytes = admitted.reduce((sum, meta) => sum + meta.bytes, 0);
        if (limits.overshoot === undefined) {
          expect(admitted.length, 'as many large puts as fit').toBe(fit);
        }
        expect(bytes, 'bytes held').toBeLessThanOrEqual(
          limits.maxBytesPerScope + (limits.overshoot?.bytes ?? 0),
        );
      },
    },
    {
      title: titles[2]!,
      run: async () => {
        const { store } = await fresh();
        const admitted = await storm(
          store,
          Array.from({ length: cap + PAST_THE_CAP }, (_, i) => `d${i}`),
        );
        if (limits.overshoot !== undefined && admitted.length > cap) return;
        expect(await store.delete(scopeA, admitted[0]!.ref)).toBe(true);
        const held = admitted.slice(1).map((meta) => meta.ref);
        const again = await storm(store, ['after 1', 'after 2', 'after 3'], held);
        expect(again.length, 'one slot was freed').toBe(1);
      },
    },
  ];
  return cases;
};
