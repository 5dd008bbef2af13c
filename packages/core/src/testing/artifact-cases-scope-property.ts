import fc from 'fast-check';
import { expect } from 'vitest';
import type { ArtifactScope } from '../artifacts/types.js';
import { type ArtifactCases, listAll } from './artifact-suite-kit.js';

/** Scope fields an attacker would try: separators, escapes, dots, controls, lone surrogates. */
const hostileFields = [
  '',
  '/',
  '//',
  '~',
  '~u0041',
  '%',
  '%2F',
  '%2f',
  '%252F',
  '.',
  '..',
  ':',
  'a/b',
  'a:b',
  'a%2Fb',
  '\u0000',
  '\n',
  ' ',
  '\uD800',
  '\uDC00a',
  '👨‍👩‍👧',
  'é',
  'e\u0301',
  '*',
  "'()!",
];

/** A scope field: a hostile one, short random text (any code unit), or a plain name. */
export const scopeFieldArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...hostileFields),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.string({ maxLength: 3 }),
  fc.constantFrom('a', 'b', 'acme'),
);

/** A scope from three such fields. */
export const scopeArbitrary: fc.Arbitrary<ArtifactScope> = fc.record({
  tenant: scopeFieldArbitrary,
  principal: scopeFieldArbitrary,
  conversation: scopeFieldArbitrary,
});

type Op =
  | { verb: 'put'; scope: number }
  | { verb: 'get' | 'head' | 'delete'; scope: number; ref: number }
  | { verb: 'list'; scope: number };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ verb: fc.constant('put' as const), scope: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      verb: fc.constantFrom('get' as const, 'head' as const, 'delete' as const),
      scope: fc.nat(),
      ref: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ verb: fc.constant('list' as const), scope: fc.nat() }) },
);

// The model compares scopes field by field, never through scopeKey: the property must not
// trust the encoding it is checking.
const sameScope = (a: ArtifactScope, b: ArtifactScope) =>
  a.tenant === b.tenant && a.principal === b.principal && a.conversation === b.conversation;

/** How many random sequences each store runs: the stores under test write to real disks. */
const RUNS = 12;

export const scopePropertyCases: ArtifactCases = ({ fresh }) => [
  {
    title: 'scope isolation (property): random scopes and operations never cross a scope',
    run: async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(scopeArbitrary, { minLength: 2, maxLength: 4 }),
          fc.array(opArbitrary, { minLength: 4, maxLength: 14 }),
          async (scopes, ops) => {
            const { store } = await fresh();
            const model: Array<{ ref: string; owner: ArtifactScope; data: string; live: boolean }> = [];
            for (const op of ops) {
              const scope = scopes[op.scope % scopes.length]!;
              const label = JSON.stringify({ op, scope });
              if (op.verb === 'put') {
                const data = `data-${model.length}`;
                const meta = await store.put(scope, { kind: 'k', data });
                model.push({ ref: meta.ref, owner: scope, data, live: true });
                continue;
              }
              if (op.verb === 'list') {
                const expected = model.filter((m) => m.live && sameScope(m.owner, scope)).map((m) => m.ref);
                expect((await listAll(store, scope)).sort(), label).toEqual(expected.sort());
                continue;
              }
              const entry = model[op.ref % Math.max(model.length, 1)];
              const ref = entry?.ref ?? 'art_0000000000000000000000';
              const visible = entry?.live === true && sameScope(entry.owner, scope);
              if (op.verb === 'get') {
                const got = await store.get(scope, ref);
                expect(got === null ? null : got.data, label).toBe(visible ? entry.data : null);
              } else if (op.verb === 'head') {
                expect((await store.head(scope, ref))?.ref ?? null, label).toBe(visible ? ref : null);
              } else {
                expect(await store.delete(scope, ref), label).toBe(visible);
                if (visible) entry.live = false;
              }
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
  },
];
