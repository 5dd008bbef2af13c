import { describe, expect, it } from 'vitest';
import { createMemoryArtifactStore } from './memory-store.js';
import { resolveWants, type WantProblem } from './resolve-wants.js';
import { scopeKey } from './scope-key.js';

const scope = { tenant: 't', principal: 'p', conversation: 'c' };

async function setup() {
  let now = 1_000;
  const blobs = new Map<string, Uint8Array>();
  const store = createMemoryArtifactStore({ clock: () => now, blobs });
  const report = await store.put(scope, { kind: 'report', data: { rows: [1] } });
  const image = await store.put(scope, { kind: 'image', data: new Uint8Array([1, 2]) });
  return { store, blobs, report, image, advance: (ms: number) => (now += ms) };
}

const validOf = (answer: Awaited<ReturnType<typeof resolveWants>>): Record<string, string[]> =>
  answer.ok ? {} : ((answer.error.details?.valid ?? {}) as Record<string, string[]>);

const problemsOf = (answer: Awaited<ReturnType<typeof resolveWants>>): WantProblem[] =>
  answer.ok ? [] : (answer.error.details?.problems as WantProblem[]);

describe('resolveWants', () => {
  it('replaces each ref by its data and reports the metas', async () => {
    const { store, report, image } = await setup();
    const answer = await resolveWants(
      store,
      scope,
      { doc: 'report', pic: 'image' },
      { doc: report.ref, pic: image.ref, n: 2 },
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.args).toEqual({ doc: { rows: [1] }, pic: new Uint8Array([1, 2]), n: 2 });
    expect(answer.wanted).toEqual({ doc: report, pic: image });
  });

  it('leaves an absent optional argument alone', async () => {
    const { store } = await setup();
    expect(await resolveWants(store, scope, { doc: 'report' }, { n: 1 })).toEqual({
      ok: true,
      args: { n: 1 },
      wanted: {},
    });
  });

  it('judges every argument and names each problem: not a ref, missing, wrong kind', async () => {
    const { store, image } = await setup();
    const answer = await resolveWants(
      store,
      scope,
      { a: 'report', b: 'report', c: 'report' },
      { a: 'hello', b: 'art_0000000000000000000000', c: image.ref },
    );
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.kind).toBe('artifact-refused');
    expect(problemsOf(answer).map((problem) => [problem.arg, problem.reason])).toEqual([
      ['a', 'not-a-ref'],
      ['b', 'missing'],
      ['c', 'wrong-kind'],
    ]);
    expect(problemsOf(answer)[2]).toMatchObject({ expected: 'report', actual: 'image' });
    expect(JSON.parse(JSON.stringify(answer.error))).toEqual(answer.error);
  });

  it('lists up to ten valid refs of the wanted kind in details.valid and the message', async () => {
    const { store, report } = await setup();
    const more = [];
    for (let i = 0; i < 12; i++) more.push((await store.put(scope, { kind: 'report', data: i })).ref);
    const answer = await resolveWants(store, scope, { doc: 'report' }, { doc: 'nope' });
    if (answer.ok) throw new Error('expected a refusal');
    const valid = validOf(answer).doc!;
    expect(valid).toHaveLength(10);
    expect(valid[0]).toBe(report.ref);
    for (const ref of valid) expect([report.ref, ...more]).toContain(ref);
    expect(answer.error.message).toContain(report.ref);
  });

  it('says expired for an artifact past its ttl', async () => {
    const { store, advance } = await setup();
    const short = await store.put(scope, { kind: 'report', data: 'x', ttlMs: 10 });
    advance(10);
    const answer = await resolveWants(store, scope, { doc: 'report' }, { doc: short.ref });
    expect(problemsOf(answer)[0]?.reason).toBe('expired');
  });

  it('says digest mismatch for a corrupted artifact', async () => {
    const { store, blobs, report } = await setup();
    const bytes = blobs.get(`${scopeKey(scope)}/${report.ref}`)!;
    bytes[0] = bytes[0]! ^ 1;
    const answer = await resolveWants(store, scope, { doc: 'report' }, { doc: report.ref });
    expect(problemsOf(answer)[0]?.reason).toBe('digest-mismatch');
  });

  it('does not resolve a ref from another scope', async () => {
    const { store, report } = await setup();
    const answer = await resolveWants(
      store,
      { ...scope, tenant: 'other' },
      { doc: 'report' },
      { doc: report.ref },
    );
    expect(problemsOf(answer)[0]?.reason).toBe('missing');
    expect(validOf(answer).doc).toEqual([]);
  });
});
