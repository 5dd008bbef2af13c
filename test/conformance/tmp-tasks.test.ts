import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { it } from 'vitest';
import { startWranglerDev } from '../wrangler-dev.js';
import { startNodeMcpServer } from './node-server.js';
import { ensureRunner, node22 } from './runner.js';

const run = promisify(execFile);
const cli = new URL('./runner/node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url)
  .pathname;
it('tasks scenarios', async () => {
  await ensureRunner();
  const dev = process.env.WORKER
    ? await startWranglerDev({
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        config: 'conformance/worker/wrangler.jsonc',
      })
    : undefined;
  const url = dev ? `${(dev as { url: string }).url}/mcp` : (await startNodeMcpServer()).url;
  console.log('URL', url);
  const names = (process.env.SCEN ?? 'tasks-lifecycle').split(',');
  for (const name of names) {
    const out = await mkdtemp(join(tmpdir(), 'tc-'));
    await run(node22, [cli, 'server', '--url', url, '--scenario', name, '-o', out], {
      timeout: 120_000,
    }).catch((e) => e);
    for (const d of await readdir(out)) {
      const checks = JSON.parse(await readFile(join(out, d, 'checks.json'), 'utf8').catch(() => '[]'));
      for (const c of checks) if (c.status !== 'SUCCESS') console.log(name, c.status, c.id, c.errorMessage);
      console.log(
        name,
        'checks',
        checks.length,
        'ok',
        checks.filter((c: { status: string }) => c.status === 'SUCCESS').length,
      );
    }
  }
}, 600_000);
