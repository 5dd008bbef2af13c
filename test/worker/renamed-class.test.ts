// The renamed_classes migration in packages/edge/wrangler.jsonc (IdentityRuns → IdentityState)
// where a user meets it first: `wrangler dev` on the persist dir the Worker left before the rename
// (test/example-worker-v3). Deployed, Cloudflare moves the class's objects and their storage to the
// new name. `wrangler dev` applies no migration to local state (it reads them only for which
// classes use SQLite) and keeps a class's objects under `<Worker name>-<class name>`, their ids
// derived from that key: IdentityState starts empty beside what IdentityRuns left. This pins that,
// so the configs' and CHANGELOG's words stay true; should a wrangler carry the state over, this
// fails and they may promise it.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';

const testDir = fileURLToPath(new URL('..', import.meta.url));
// One live run per identity: whether the second is refused shows whether the count is there.
const vars = { TOOLCTX_MAX_RUNS_PER_IDENTITY: '1' };

let work: string;
let stateDir: string;
let renamed: ExampleWorker | undefined;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolctx-renamed-class-'));
  stateDir = join(work, 'state');
});
afterAll(async () => {
  await renamed?.dev.stop();
  await rm(work, { recursive: true, force: true });
});

/** The Durable Object classes that have local storage in the persist dir. */
const storedClasses = async () => (await readdir(join(stateDir, 'v3', 'do'))).sort();

async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(await response.json()).toMatchObject({
    kind: 'limit-exceeded',
    details: { option: 'maxRunsPerIdentity' },
  });
}

describe('IdentityRuns renamed IdentityState (migration v4) under wrangler dev', () => {
  let first: string;

  it('before the rename, IdentityRuns counts and lists the live run: a second is refused', async () => {
    const before = await startExampleWorker(vars, {
      cwd: testDir,
      config: 'example-worker-v3/wrangler.jsonc',
      stateDir,
    });
    try {
      first = await before.startRun('rita');
      await expectRefused(await before.post('/runs', {}, { as: 'rita' }));
      expect(await (await before.send('/runs', { as: 'rita' })).json()).toMatchObject({
        runs: [{ runId: first, ended: false }],
      });
    } finally {
      await before.dev.stop();
    }
    expect(await storedClasses()).toEqual([
      'toolctx-ArtifactAdmissions',
      'toolctx-IdentityRuns',
      'toolctx-RunHost',
    ]);
  });

  it("after it, on the same persist dir, the run is kept but IdentityState starts empty: the identity's count and run list are not carried over", async () => {
    renamed = await startExampleWorker(vars, { stateDir });
    // RunHost kept its name and its storage: the persist dir is the one the first Worker filled.
    expect(await (await renamed.send(`/runs/${first}`, { as: 'rita' })).json()).toMatchObject({
      runId: first,
      ended: false,
    });
    // Deployed, the migration would keep the list and refuse this run; locally neither holds.
    expect(await (await renamed.send('/runs', { as: 'rita' })).json()).toEqual({ runs: [] });
    const second = await renamed.post('/runs', {}, { as: 'rita' });
    expect(second.status).toBe(201);
    await second.body?.cancel();
    // Now counted afresh under the new name, while the old state is left where it was.
    await expectRefused(await renamed.post('/runs', {}, { as: 'rita' }));
    expect(await storedClasses()).toEqual([
      'toolctx-ArtifactAdmissions',
      'toolctx-IdentityRuns',
      'toolctx-IdentityState',
      'toolctx-RunHost',
    ]);
  });
});
