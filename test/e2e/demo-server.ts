import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

const demoDir = fileURLToPath(new URL('../../apps/demo', import.meta.url));
const quiet = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/** A demo Worker this test started, and how to stop it. */
export type RunningDemo = Pick<WranglerDev, 'url' | 'output' | 'restart' | 'stop'>;

/**
 * Builds the page with vite into a page dir of its own (nothing shared with `npm run demo` or a
 * parallel build) and serves it with `wrangler dev`.
 */
export async function startDemo(vars: Record<string, string> = {}): Promise<RunningDemo> {
  const pageDir = await mkdtemp(join(tmpdir(), 'toolctx-e2e-page-'));
  await promisify(execFile)('pnpm', ['exec', 'vite', 'build', '--outDir', pageDir, '--logLevel', 'warn'], {
    cwd: demoDir,
    env: quiet,
  });
  const dev = await startWranglerDev({
    cwd: demoDir,
    vars,
    args: ['--assets', pageDir],
    readyPath: '/health',
  });
  return {
    url: dev.url,
    output: dev.output,
    restart: dev.restart,
    async stop() {
      await dev.stop();
      await rm(pageDir, { recursive: true, force: true });
    },
  };
}
