import { expect } from 'vitest';
import { artifactFieldLimits } from '../artifacts/field-limits.js';
import type { ArtifactPut } from '../artifacts/types.js';
import type { ToolctxError } from '../errors.js';
import { type ArtifactCases, listAll, scopeA, streamOf } from './artifact-suite-kit.js';

type Field = 'kind' | 'label' | 'mediaType';

// What no header can carry: line breaks (header injection), NUL, other C0 and C1 controls, DEL,
// and lone surrogates (encodeURIComponent throws on them, so a door serving one would answer 500).
const unsafe = [
  'a\r\nx-evil: 1',
  'a\nb',
  'a\rb',
  'nul\u0000',
  'tab\tin',
  'del\u007f',
  'nel\u0085',
  'lone\uD800',
  '\uDC00trail',
  'pair backwards \uDE00\uD83D',
];

const notMediaTypes = [
  'texthtml',
  'text/',
  '/html',
  'text /html',
  'text/html ',
  'text/html; charset',
  'text/html; charset="utf-8',
  'text/plain; charset=ütf-8',
  'text/plain; name=a b',
  'tëxt/plain',
  'text/html, image/svg+xml',
];

/** The refusal `put` must give: invalid-argument, the field named in the message and the details. */
async function expectRefused(put: () => Promise<unknown>, field: Field, what: string): Promise<string> {
  let thrown: unknown;
  try {
    await put();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `${what} must be refused`).toBeInstanceOf(Error);
  const info = (thrown as ToolctxError).info ?? {};
  expect(info.kind, `${what}: ${String(thrown)}`).toBe('invalid-argument');
  expect(info.message, what).toContain(`"${field}"`);
  expect(info.details, what).toMatchObject({ field, limit: artifactFieldLimits[field] });
  return info.message as string;
}

export const fieldCases: ArtifactCases = ({ fresh, options }) => {
  const put = (field: Field, value: string): Omit<ArtifactPut, 'data'> =>
    field === 'kind' ? { kind: value } : { kind: 'k', [field]: value };

  const cases = [
    {
      title:
        'a kind, label or media type that no header can carry is refused naming the field; nothing is stored',
      run: async () => {
        const { store } = await fresh();
        for (const field of ['kind', 'label', 'mediaType'] as const) {
          for (const value of unsafe) {
            const what = `${field} ${JSON.stringify(value)}`;
            const message = await expectRefused(
              () => store.put(scopeA, { ...put(field, value), data: 'x' }),
              field,
              what,
            );
            expect(message, what).toMatch(/control character|lone surrogate/);
          }
        }
        expect(await listAll(store, scopeA)).toEqual([]);
      },
    },
    {
      title: 'a media type that is not type/subtype with ;name=value parameters is refused naming the field',
      run: async () => {
        const { store } = await fresh();
        for (const value of notMediaTypes) {
          await expectRefused(
            () => store.put(scopeA, { kind: 'k', data: 'x', mediaType: value }),
            'mediaType',
            JSON.stringify(value),
          );
        }
        expect(await listAll(store, scopeA)).toEqual([]);
      },
    },
    {
      title: 'media types with parameters, suffixes and quoted values are kept as given',
      run: async () => {
        const { store } = await fresh();
        for (const mediaType of [
          'text/plain; charset=utf-8',
          'application/vnd.api+json',
          'text/plain;format=flowed',
          'multipart/form-data; boundary="a b;c=\\"d\\""',
          'Text/HTML; Charset=UTF-8',
        ]) {
          const meta = await store.put(scopeA, { kind: 'k', data: 'x', mediaType });
          expect((await store.head(scopeA, meta.ref))?.mediaType).toBe(mediaType);
        }
      },
    },
    {
      title:
        'a kind, label or media type over its limit is refused naming the limit; one at the limit is kept',
      run: async () => {
        const { store } = await fresh();
        const long: Record<Field, (length: number) => string> = {
          kind: (length) => 'k'.repeat(length),
          // Three UTF-8 bytes a character, so the limit's worst case in bytes is what KV and R2 keep.
          label: (length) => '漢'.repeat(length),
          mediaType: (length) => `application/${'x'.repeat(length - 'application/'.length)}`,
        };
        for (const field of ['kind', 'label', 'mediaType'] as const) {
          const limit = artifactFieldLimits[field];
          const message = await expectRefused(
            () => store.put(scopeA, { ...put(field, long[field](limit + 1)), data: 'x' }),
            field,
            `${field} of ${limit + 1}`,
          );
          expect(message).toContain(`the limit is ${limit}`);
          const kept = await store.put(scopeA, { ...put(field, long[field](limit)), data: 'x' });
          expect((await store.head(scopeA, kept.ref))?.[field]).toBe(long[field](limit));
          const listed = (await store.list(scopeA, { limit: 100 })).artifacts.find(
            (meta) => meta.ref === kept.ref,
          );
          expect(listed?.[field]).toBe(long[field](limit));
        }
        expect(await listAll(store, scopeA)).toHaveLength(3);
      },
    },
    {
      title: 'a label with letters of any script, emoji and symbols is kept as given',
      run: async () => {
        const { store } = await fresh();
        const label = 'Q3 — “draft” 😀 漢字 résumé \u2028 \u202Efdp.exe';
        const meta = await store.put(scopeA, { kind: 'report/v2', data: 'x', label });
        expect((await store.get(scopeA, meta.ref))?.meta.label).toBe(label);
      },
    },
  ];
  if (options.capabilities.streaming) {
    cases.push({
      title: 'a streamed put with a label no header can carry is refused naming the field; nothing is stored',
      run: async () => {
        const { store } = await fresh();
        await expectRefused(
          () => store.putStream!(scopeA, { kind: 'k', data: streamOf([new Uint8Array(8)]), label: 'a\r\nb' }),
          'label',
          'a streamed label with CR LF',
        );
        expect(await listAll(store, scopeA)).toEqual([]);
      },
    });
  }
  return cases;
};
