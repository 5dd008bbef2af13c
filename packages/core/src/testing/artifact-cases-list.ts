import { expect } from 'vitest';
import type { ArtifactStore } from '../artifacts/types.js';
import { type ArtifactCases, listAll, scopeA } from './artifact-suite-kit.js';
import { expectToolctxError } from './suite-cases.js';

async function putMany(store: ArtifactStore, count: number, kind = 'k'): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < count; i++) refs.push((await store.put(scopeA, { kind, data: `item ${i}` })).ref);
  return refs;
}

const sorted = (refs: string[]): string[] => [...refs].sort();

export const listCases: ArtifactCases = ({ fresh }) => [
  {
    title: 'list of an empty scope is empty with no cursor',
    run: async () => {
      const { store } = await fresh();
      const page = await store.list(scopeA);
      expect(page.artifacts).toEqual([]);
      expect(page.cursor).toBeUndefined();
    },
  },
  {
    title: 'list returns the same metas as head',
    run: async () => {
      const { store } = await fresh();
      const meta = await store.put(scopeA, { kind: 'k', data: 'x', label: 'l', origin: { runId: 'r' } });
      expect((await store.list(scopeA)).artifacts).toEqual([meta]);
    },
  },
  {
    title: 'list pages with every limit from 1 to n+1 show each artifact exactly once',
    run: async () => {
      const { store } = await fresh();
      const refs = await putMany(store, 7);
      for (let limit = 1; limit <= 8; limit++) {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 20; page++) {
          const listed = await store.list(scopeA, cursor === undefined ? { limit } : { cursor, limit });
          expect(listed.artifacts.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
          seen.push(...listed.artifacts.map((meta) => meta.ref));
          cursor = listed.cursor;
          if (cursor === undefined) break;
        }
        expect(cursor, `limit ${limit}: list never ended`).toBeUndefined();
        expect(sorted(seen), `limit ${limit}`).toEqual(sorted(refs));
      }
    },
  },
  {
    title: 'list without a limit gives pages of 100',
    run: async () => {
      const { store } = await fresh();
      const refs = await putMany(store, 101);
      const first = await store.list(scopeA);
      expect(first.artifacts).toHaveLength(100);
      expect(first.cursor).toBeDefined();
      const rest = await store.list(scopeA, { cursor: first.cursor });
      expect(rest.artifacts).toHaveLength(1);
      expect(rest.cursor).toBeUndefined();
      expect(sorted([...first.artifacts, ...rest.artifacts].map((meta) => meta.ref))).toEqual(sorted(refs));
    },
  },
  {
    title: 'list order is stable: paging twice gives the same order',
    run: async () => {
      const { store, clock } = await fresh();
      await putMany(store, 3);
      clock.advance(1);
      await putMany(store, 3);
      expect(await listAll(store, scopeA, 2)).toEqual(await listAll(store, scopeA, 4));
    },
  },
  {
    title: 'a cursor stays valid while puts happen between pages (each earlier artifact exactly once)',
    run: async () => {
      const { store, clock } = await fresh();
      const before = await putMany(store, 6);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 50; page++) {
        const listed = await store.list(scopeA, cursor === undefined ? { limit: 2 } : { cursor, limit: 2 });
        seen.push(...listed.artifacts.map((meta) => meta.ref));
        cursor = listed.cursor;
        if (cursor === undefined) break;
        clock.advance(page % 2);
        // Puts between the first pages only: new ones may be listed, so the listing must still end.
        if (page < 3) await putMany(store, 2, 'late');
      }
      expect(cursor).toBeUndefined();
      for (const ref of before) expect(seen.filter((seenRef) => seenRef === ref).length, ref).toBe(1);
      expect(new Set(seen).size, 'no artifact repeated').toBe(seen.length);
    },
  },
  {
    title: 'a cursor stays valid while other artifacts are deleted between pages',
    run: async () => {
      const { store } = await fresh();
      const refs = await putMany(store, 8);
      const first = await store.list(scopeA, { limit: 3 });
      const shown = first.artifacts.map((meta) => meta.ref);
      const rest = refs.filter((ref) => !shown.includes(ref));
      await store.delete(scopeA, shown[0]!);
      await store.delete(scopeA, rest[0]!);
      const seen = [...shown];
      let cursor = first.cursor;
      while (cursor !== undefined) {
        const listed = await store.list(scopeA, { cursor, limit: 3 });
        seen.push(...listed.artifacts.map((meta) => meta.ref));
        cursor = listed.cursor;
      }
      expect(sorted(seen)).toEqual(sorted(refs.filter((ref) => ref !== rest[0])));
    },
  },
  {
    title: 'a malformed cursor or limit is a ToolctxError of kind invalid-argument',
    run: async () => {
      const { store } = await fresh();
      await putMany(store, 2);
      for (const cursor of ['not-a-cursor', '', '%%%', '../..']) {
        await expectToolctxError(
          () => store.list(scopeA, { cursor }),
          'invalid-argument',
          `cursor ${JSON.stringify(cursor)}`,
        );
        // The message names the cursor, so a caller (or the HTTP door's 400) can tell what to fix.
        const refusal: unknown = await store.list(scopeA, { cursor }).catch((error: unknown) => error);
        expect(String((refusal as Error).message)).toContain(JSON.stringify(cursor));
      }
      for (const limit of [0, -1, 1.5]) {
        await expectToolctxError(() => store.list(scopeA, { limit }), 'invalid-argument', `limit ${limit}`);
      }
    },
  },
];
