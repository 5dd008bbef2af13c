// Global set-up of the consumer project: `pnpm pack` each package (as publishing would, with
// `workspace:*` turned into versions) into one temp folder outside the repository, once per run.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const packs = await mkdtemp(join(tmpdir(), 'toolctx-packs-'));
  for (const name of ['core', 'browser', 'edge']) {
    const cwd = fileURLToPath(new URL(`../../packages/${name}/`, import.meta.url));
    await run('pnpm', ['pack', '--pack-destination', packs], { cwd });
  }
  project.provide('packs', packs);
  return () => rm(packs, { recursive: true, force: true });
}
