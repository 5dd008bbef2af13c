import { expect } from 'vitest';
import {
  type ArtifactCases,
  allBytes,
  digestOf,
  listAll,
  readStream,
  scopeA,
  scopeB,
  streamOf,
} from './artifact-suite-kit.js';
import { errorKind } from './suite-cases.js';

const chunks = (): Uint8Array[] => [
  allBytes(),
  new Uint8Array(70_000).fill(7),
  new Uint8Array([1]),
  allBytes().reverse(),
];

const joined = (): Uint8Array => {
  const parts = chunks();
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
};

export const streamCases: ArtifactCases = ({ fresh, options }) => {
  if (!options.capabilities.streaming) {
    return [
      {
        title: 'without streaming, putStream and getStream are absent or throw unsupported',
        run: async () => {
          const { store } = await fresh();
          expect(store.capabilities.streaming).toBe(false);
          for (const [name, call] of [
            ['putStream', () => store.putStream?.(scopeA, { kind: 'k', data: streamOf([allBytes()]) })],
            ['getStream', () => store.getStream?.(scopeA, 'art_0000000000000000000000')],
          ] as const) {
            if ((store as unknown as Record<string, unknown>)[name] === undefined) continue;
            let thrown: unknown;
            try {
              await call();
            } catch (error) {
              thrown = error;
            }
            expect(errorKind(thrown), `${name} must throw a ToolctxError of kind unsupported`).toBe(
              'unsupported',
            );
          }
          expect(await listAll(store, scopeA)).toEqual([]);
        },
      },
    ];
  }
  const max = options.capabilities.retention?.maxArtifactBytes;
  return [
    {
      title: 'streaming: capabilities declare it and both verbs exist',
      run: async () => {
        const { store } = await fresh();
        expect(store.capabilities.streaming).toBe(true);
        expect(typeof store.putStream).toBe('function');
        expect(typeof store.getStream).toBe('function');
      },
    },
    {
      title: 'streaming: a multi-chunk putStream round-trips through getStream and get',
      run: async () => {
        const { store } = await fresh();
        const expected = joined();
        const meta = await store.putStream!(scopeA, { kind: 'blob', data: streamOf(chunks()), label: 'big' });
        expect(meta).toMatchObject({
          kind: 'blob',
          label: 'big',
          encoding: 'binary',
          bytes: expected.byteLength,
        });
        expect(meta.digest).toBe(await digestOf(expected));
        const streamed = await store.getStream!(scopeA, meta.ref);
        expect(streamed?.meta).toEqual(meta);
        expect(Array.from(await readStream(streamed!.body))).toEqual(Array.from(expected));
        const got = await store.get(scopeA, meta.ref);
        expect(Array.from(got?.data as Uint8Array)).toEqual(Array.from(expected));
      },
    },
    {
      title: 'streaming: getStream of an unknown ref, or from another scope, is null',
      run: async () => {
        const { store } = await fresh();
        const meta = await store.putStream!(scopeA, { kind: 'blob', data: streamOf([allBytes()]) });
        expect(await store.getStream!(scopeA, 'art_0000000000000000000000')).toBeNull();
        expect(await store.getStream!(scopeB, meta.ref)).toBeNull();
      },
    },
    {
      title: `streaming: a streamed put larger than maxArtifactBytes is refused and stores nothing${max === undefined ? ' — n/a: no retention declared' : ''}`,
      run: async () => {
        const { store } = await fresh();
        if (max === undefined) {
          expect(store.capabilities.streaming).toBe(true);
          return;
        }
        let thrown: unknown;
        try {
          await store.putStream!(scopeA, {
            kind: 'blob',
            data: streamOf([new Uint8Array(max), new Uint8Array(1)]),
          });
        } catch (error) {
          thrown = error;
        }
        expect(errorKind(thrown)).toBe('quota-exceeded');
        expect(await listAll(store, scopeA)).toEqual([]);
      },
    },
  ];
};
