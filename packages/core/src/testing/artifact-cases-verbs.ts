import { expect } from 'vitest';
import { isRef } from '../artifacts/ref.js';
import type { ArtifactData } from '../artifacts/types.js';
import { type ArtifactCases, allBytes, digestOf, listAll, scopeA, utf8 } from './artifact-suite-kit.js';
import { expectToolctxError } from './suite-cases.js';

const nestedJson = {
  title: 'Ünïcödé 😀 — 漢字',
  rows: [1, -2.5, 0, true, false, null, 'x', { deep: { deeper: [[], {}] } }],
  empty: '',
};

export const verbCases: ArtifactCases = ({ fresh }) => {
  const roundTrip = (title: string, data: ArtifactData, encoding: string) => ({
    title,
    run: async () => {
      const { store } = await fresh();
      const meta = await store.put(scopeA, { kind: 'sample', data });
      expect(meta.encoding).toBe(encoding);
      const head = await store.head(scopeA, meta.ref);
      expect(head).toEqual(meta);
      const got = await store.get(scopeA, meta.ref);
      expect(got?.meta).toEqual(meta);
      if (data instanceof Uint8Array) {
        expect(got?.data).toBeInstanceOf(Uint8Array);
        expect(Array.from(got?.data as Uint8Array)).toEqual(Array.from(data));
      } else expect(got?.data).toEqual(data);
      expect(await store.delete(scopeA, meta.ref)).toBe(true);
      expect(await store.head(scopeA, meta.ref)).toBeNull();
      expect(await store.get(scopeA, meta.ref)).toBeNull();
      expect(await store.delete(scopeA, meta.ref)).toBe(false);
    },
  });

  return [
    roundTrip('text: put, head, get, delete round-trip', 'hello, world\nline 2', 'text'),
    roundTrip('binary: all 256 byte values round-trip as a Uint8Array', allBytes(), 'binary'),
    roundTrip('JSON: a nested unicode value round-trips parsed', nestedJson, 'json'),
    roundTrip('empty string round-trips as text of 0 bytes', '', 'text'),
    roundTrip('empty Uint8Array round-trips as binary', new Uint8Array(0), 'binary'),
    roundTrip('JSON scalars and empty containers round-trip', [0, null, false, [], {}, 'a'], 'json'),
    {
      title: 'JSON null alone round-trips as JSON',
      run: async () => {
        const { store } = await fresh();
        const meta = await store.put(scopeA, { kind: 'sample', data: null });
        expect(meta.encoding).toBe('json');
        expect((await store.get(scopeA, meta.ref))?.data).toBeNull();
      },
    },
    {
      title: 'meta.bytes counts UTF-8 bytes exactly',
      run: async () => {
        const { store } = await fresh();
        expect((await store.put(scopeA, { kind: 'k', data: 'é😀a' })).bytes).toBe(7);
        expect((await store.put(scopeA, { kind: 'k', data: allBytes() })).bytes).toBe(256);
        expect((await store.put(scopeA, { kind: 'k', data: { é: 1 } })).bytes).toBe(
          utf8('{"é":1}').byteLength,
        );
      },
    },
    {
      title: 'meta.createdAt comes from the clock',
      run: async () => {
        const { store, clock } = await fresh();
        const first = await store.put(scopeA, { kind: 'k', data: 'a' });
        clock.advance(5_000);
        const second = await store.put(scopeA, { kind: 'k', data: 'b' });
        expect(first.createdAt).toBe(clock.now() - 5_000);
        expect(second.createdAt).toBe(clock.now());
        expect(first.expiresAt).toBeUndefined();
      },
    },
    {
      title: 'mediaType defaults per encoding and is kept when given',
      run: async () => {
        const { store } = await fresh();
        expect((await store.put(scopeA, { kind: 'k', data: 'x' })).mediaType).toMatch(/^text\/plain/);
        expect((await store.put(scopeA, { kind: 'k', data: allBytes() })).mediaType).toBe(
          'application/octet-stream',
        );
        expect((await store.put(scopeA, { kind: 'k', data: { a: 1 } })).mediaType).toBe('application/json');
        const png = await store.put(scopeA, { kind: 'k', data: allBytes(), mediaType: 'image/png' });
        expect((await store.head(scopeA, png.ref))?.mediaType).toBe('image/png');
      },
    },
    {
      title: 'kind, label and origin are kept; origin defaults to {}',
      run: async () => {
        const { store } = await fresh();
        const origin = { runId: 'run_1', toolCallId: 'call_9' };
        const meta = await store.put(scopeA, { kind: 'report/v2', data: 'x', label: 'Q3 — draft', origin });
        expect(await store.head(scopeA, meta.ref)).toMatchObject({
          kind: 'report/v2',
          label: 'Q3 — draft',
          origin,
        });
        const bare = await store.put(scopeA, { kind: 'k', data: 'y' });
        expect(bare.origin).toEqual({});
        expect(bare.label).toBeUndefined();
      },
    },
    {
      title: 'digest is the sha-256 of the stored bytes (text UTF-8, binary, JSON.stringify)',
      run: async () => {
        const { store } = await fresh();
        expect((await store.put(scopeA, { kind: 'k', data: 'é😀' })).digest).toBe(await digestOf('é😀'));
        expect((await store.put(scopeA, { kind: 'k', data: allBytes() })).digest).toBe(
          await digestOf(allBytes()),
        );
        const json = await store.put(scopeA, { kind: 'k', data: nestedJson });
        expect(json.digest).toBe(await digestOf(JSON.stringify(nestedJson)));
      },
    },
    {
      title: 'a supplied digest that matches is accepted',
      run: async () => {
        const { store } = await fresh();
        const digest = await digestOf('checked');
        const meta = await store.put(scopeA, { kind: 'k', data: 'checked', digest });
        expect(meta.digest).toBe(digest);
        expect((await store.get(scopeA, meta.ref))?.data).toBe('checked');
      },
    },
    {
      title: 'a supplied digest that does not match is refused and nothing is stored',
      run: async () => {
        const { store } = await fresh();
        const digest = await digestOf('something else');
        await expectToolctxError(
          () => store.put(scopeA, { kind: 'k', data: 'real', digest }),
          'integrity-failed',
        );
        expect(await listAll(store, scopeA)).toEqual([]);
      },
    },
    {
      title: 'head, get and delete of unknown or malformed refs give null and false',
      run: async () => {
        const { store } = await fresh();
        await store.put(scopeA, { kind: 'k', data: 'x' });
        for (const ref of ['art_0000000000000000000000', '', 'art_', 'nope', '../x', 'art_%2F', '*']) {
          expect(await store.head(scopeA, ref), ref).toBeNull();
          expect(await store.get(scopeA, ref), ref).toBeNull();
          expect(await store.delete(scopeA, ref), ref).toBe(false);
        }
      },
    },
    {
      title: 'refs are well-formed, unique over 100 puts, and not derived from content',
      run: async () => {
        const { store } = await fresh();
        const refs = new Set<string>();
        for (let i = 0; i < 100; i++) refs.add((await store.put(scopeA, { kind: 'k', data: 'same' })).ref);
        expect(refs.size).toBe(100);
        for (const ref of refs) expect(isRef(ref), ref).toBe(true);
      },
    },
    {
      title: 'stored bytes are copies: mutating the input or the output changes nothing',
      run: async () => {
        const { store } = await fresh();
        const input = allBytes();
        const meta = await store.put(scopeA, { kind: 'k', data: input });
        input[0] = 99;
        const first = (await store.get(scopeA, meta.ref))?.data as Uint8Array;
        expect(first[0]).toBe(0);
        first[1] = 99;
        const second = (await store.get(scopeA, meta.ref))?.data as Uint8Array;
        expect(second[1]).toBe(1);
      },
    },
    {
      title: 'a put without a kind or with non-JSON data is refused and stores nothing',
      run: async () => {
        const { store } = await fresh();
        const bad = [
          { kind: '', data: 'x' },
          { kind: 'k', data: undefined },
          { kind: 'k', data: { f: () => 1 } },
          { kind: 'k', data: Number.NaN },
        ];
        for (const input of bad) {
          await expectToolctxError(() => store.put(scopeA, input as never), undefined, JSON.stringify(input));
        }
        expect(await listAll(store, scopeA)).toEqual([]);
      },
    },
  ];
};
