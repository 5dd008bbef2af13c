import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scopeArbitrary, scopeFieldArbitrary } from '../testing/artifact-cases-scope-property.js';
import { scopeKey } from './scope-key.js';
import type { ArtifactScope } from './types.js';

const same = (a: ArtifactScope, b: ArtifactScope) =>
  a.tenant === b.tenant && a.principal === b.principal && a.conversation === b.conversation;

describe('scopeKey (property)', () => {
  it('is injective: two scopes share a key only when all three fields are equal', () => {
    fc.assert(
      fc.property(scopeArbitrary, scopeArbitrary, (a, b) => {
        expect(scopeKey(a) === scopeKey(b)).toBe(same(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('is injective on near misses: one field moved, split or extended by a hostile string', () => {
    // Pairs built to collide under a naive join: the same characters, cut in different places.
    const splitPair = fc
      .tuple(fc.string({ unit: 'binary', maxLength: 8 }), fc.nat(), fc.nat(), scopeFieldArbitrary)
      .map(([text, i, j, extra]) => {
        const cut = (n: number) => n % (text.length + 1);
        const [x, y] = [cut(i), cut(j)].sort((p, q) => p - q) as [number, number];
        return {
          a: { tenant: text.slice(0, x), principal: text.slice(x, y), conversation: text.slice(y) + extra },
          b: { tenant: text.slice(0, y), principal: text.slice(y), conversation: extra },
        };
      });
    fc.assert(
      fc.property(splitPair, ({ a, b }) => {
        expect(scopeKey(a) === scopeKey(b)).toBe(same(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('never yields a "." or ".." segment, and only [A-Za-z0-9_%~-] and the two "/" joins', () => {
    fc.assert(
      fc.property(scopeArbitrary, (scope) => {
        const key = scopeKey(scope);
        const segments = key.split('/');
        expect(segments).toHaveLength(3);
        for (const segment of segments) {
          expect(segment).toMatch(/^[A-Za-z0-9_%~-]+$/);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
