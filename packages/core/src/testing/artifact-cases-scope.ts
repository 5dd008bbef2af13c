import { expect } from 'vitest';
import type { ArtifactScope, ArtifactStore } from '../artifacts/types.js';
import { type ArtifactCases, listAll } from './artifact-suite-kit.js';

/** Pairs of scopes that a naive `join('/')` or `join(':')` key would confuse. */
const lookalikes: Array<[string, ArtifactScope, ArtifactScope]> = [
  [
    '/ across tenant and principal',
    { tenant: 'a/b', principal: 'c', conversation: 'd' },
    { tenant: 'a', principal: 'b/c', conversation: 'd' },
  ],
  [
    '/ across principal and conversation',
    { tenant: 't', principal: 'p/q', conversation: '' },
    { tenant: 't', principal: 'p', conversation: 'q/' },
  ],
  [
    'empty fields in different places',
    { tenant: '', principal: 'x', conversation: '' },
    { tenant: 'x', principal: '', conversation: '' },
  ],
  [
    'all empty versus a tilde',
    { tenant: '', principal: '', conversation: '' },
    { tenant: '~', principal: '~', conversation: '~' },
  ],
  [
    'encoded lookalikes',
    { tenant: 'a%2Fb', principal: '..', conversation: '.' },
    { tenant: 'a/b', principal: '%2E%2E', conversation: '%2E' },
  ],
  [
    'colon joins',
    { tenant: 'a:b', principal: 'c', conversation: 'd' },
    { tenant: 'a', principal: 'b:c', conversation: 'd' },
  ],
];

async function expectIsolated(
  store: ArtifactStore,
  scope: ArtifactScope,
  other: ArtifactScope,
): Promise<void> {
  const mine = await store.put(scope, { kind: 'k', data: 'mine' });
  const theirs = await store.put(other, { kind: 'k', data: 'theirs' });
  const label = JSON.stringify([scope, other]);
  expect(await store.head(other, mine.ref), label).toBeNull();
  expect(await store.get(other, mine.ref), label).toBeNull();
  expect(await store.delete(other, mine.ref), label).toBe(false);
  expect(await listAll(store, other), label).toEqual([theirs.ref]);
  expect(await listAll(store, scope), label).toEqual([mine.ref]);
  expect((await store.get(scope, mine.ref))?.data, label).toBe('mine');
  if (store.getStream) expect(await store.getStream(other, mine.ref), label).toBeNull();
}

export const scopeCases: ArtifactCases = ({ fresh }) => [
  {
    title: 'scope isolation: another tenant cannot see, list, read or delete',
    run: async () => {
      const { store } = await fresh();
      await expectIsolated(
        store,
        { tenant: 'a', principal: 'p', conversation: 'c' },
        { tenant: 'b', principal: 'p', conversation: 'c' },
      );
    },
  },
  {
    title: 'scope isolation: another principal or conversation of the same tenant is a different scope',
    run: async () => {
      const { store } = await fresh();
      await expectIsolated(
        store,
        { tenant: 't', principal: 'p1', conversation: 'c' },
        { tenant: 't', principal: 'p2', conversation: 'c' },
      );
      const { store: second } = await fresh();
      await expectIsolated(
        second,
        { tenant: 't', principal: 'p', conversation: 'c1' },
        { tenant: 't', principal: 'p', conversation: 'c2' },
      );
    },
  },
  ...lookalikes.map(([what, scope, other]) => ({
    title: `scope isolation: scopes that differ only by ${what}`,
    run: async () => {
      const { store } = await fresh();
      await expectIsolated(store, scope, other);
    },
  })),
  {
    title: 'scope isolation: deleting in one scope leaves the same ref string elsewhere untouched',
    run: async () => {
      const { store } = await fresh();
      const scope = { tenant: 't', principal: 'p', conversation: 'c' };
      const meta = await store.put(scope, { kind: 'k', data: 'keep' });
      for (const other of [
        { ...scope, tenant: 'T' },
        { ...scope, principal: '' },
        { ...scope, conversation: 'c ' },
      ]) {
        expect(await store.delete(other, meta.ref)).toBe(false);
      }
      expect((await store.get(scope, meta.ref))?.data).toBe('keep');
    },
  },
];
