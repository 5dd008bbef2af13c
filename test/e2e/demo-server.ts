import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const demoDir = fileURLToPath(new URL('../../apps/demo', import.meta.url));
const quiet = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/** A demo Worker this test started, and how to stop it. */
export interface RunningDemo {
  url: string;
  /** Stops wrangler and starts it again on the same port and persist dir, as a user's restart would. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Builds the page with vite and serves it with `wrangler dev` on a free port, with a fresh
 * persist dir and page dir of its own (so nothing is shared with `npm run demo` or a parallel
 * build). wrangler runs in its own process group, stopped as a group.
 */
export async function startDemo(vars: Record<string, string> = {}): Promise<RunningDemo> {
  const work = await mkdtemp(join(tmpdir(), 'toolctx-e2e-'));
  const pageDir = join(work, 'page');
  await promisify(execFile)('pnpm', ['exec', 'vite', 'build', '--outDir', pageDir, '--logLevel', 'warn'], {
    cwd: demoDir,
    env: quiet,
  });
  const port = await freePort();
  const args = ['exec', 'wrangler', 'dev', '--ip', '127.0.0.1', '--port', String(port)];
  args.push('--persist-to', join(work, 'state'), '--assets', pageDir);
  args.push('--show-interactive-dev-session=false', '--log-level', 'warn');
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const url = `http://127.0.0.1:${port}`;

  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn('pnpm', args, {
      cwd: demoDir,
      env: quiet,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    await waitForHealth(url, started, () => output);
  };
  const stop = async () => {
    if (child) await stopGroup(child);
    await rm(work, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    async restart() {
      if (child) await stopGroup(child);
      await launch();
    },
    stop,
  };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The demo did not answer ${url}/health within 60 s:\n${output()}`);
}

/** SIGTERM to the whole group (pnpm, wrangler, esbuild, workerd), then SIGKILL if it lingers. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
  // workerd may outlive its parent by a moment; make sure nothing of the group is left.
  signal('SIGKILL');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
