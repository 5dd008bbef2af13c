// Starts a Worker with `wrangler dev` on loopback, as a user runs it: the tests of Worker behaviour
// (hang-ups, restarts, alarms, sessions, limits) run against this, not only the vitest pool.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budget, slowStart } from './slowdown.js';

const quiet = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/** What {@link startWranglerDev} starts. */
export interface WranglerDevOptions {
  /** The package folder wrangler runs in (its `wrangler` dev dependency is used). */
  cwd: string;
  /** A wrangler config other than the folder's `wrangler.jsonc`, relative to `cwd`. */
  config?: string;
  /** `--var NAME:value` pairs. */
  vars?: Record<string, string>;
  /** More arguments for `wrangler dev`, such as `--assets <dir>`. */
  args?: string[];
  /** The path polled until it answers (any status below 500). Default `/`. */
  readyPath?: string;
  /** The wrangler to run, for a folder outside the workspace (an npm project's `node_modules/.bin/wrangler`). */
  wrangler?: string;
  /** The port to serve on, for a Worker that must know its own URL up front (a var); default a free one. */
  port?: number;
}

/** A `wrangler dev` this test started, and how to restart and stop it. */
export interface WranglerDev {
  url: string;
  /** The `--persist-to` folder: local KV, R2 and Durable Object storage, kept across `restart()`. */
  stateDir: string;
  /** Everything wrangler and workerd printed so far. */
  output(): string;
  /** The process group of wrangler, esbuild and workerd (new after `restart()`): where to read their memory. */
  pgid(): number | undefined;
  /** Stops wrangler and starts it again on the same port and persist dir, as a user's restart would. */
  restart(): Promise<void>;
  /**
   * Kills the whole group at once (SIGKILL: no graceful shutdown, as a crash, an eviction or a
   * deploy mid-call would), then starts it again on the same port and persist dir.
   */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` on a free port with a fresh persist dir of its own (nothing shared with
 * `npm run demo` or a parallel test), in its own process group, stopped as a group.
 */
export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const work = await mkdtemp(join(tmpdir(), 'toolctx-wrangler-'));
  const stateDir = join(work, 'state');
  const [command, ...wrangler] = [...(options.wrangler ? [options.wrangler] : ['pnpm', 'exec', 'wrangler'])];
  const argsFor = async (port: number) => {
    const args = [...wrangler, 'dev', '--ip', '127.0.0.1', '--port', String(port)];
    if (options.config) args.push('--config', options.config);
    args.push('--persist-to', stateDir);
    args.push('--show-interactive-dev-session=false', '--log-level', 'warn');
    // An inspector port of its own: parallel tests would otherwise meet on 9229, and a restart
    // fails with "Address already in use" when another wrangler dev holds it.
    if (!options.args?.includes('--inspector-port')) {
      args.push('--inspector-port', String(await freePort([port])));
    }
    for (const [name, value] of Object.entries(options.vars ?? {})) args.push('--var', `${name}:${value}`);
    args.push(...(options.args ?? []));
    return args;
  };

  let child: ChildProcess | undefined;
  let output = '';
  let port = options.port ?? (await freePort());
  let args = await argsFor(port);
  const launch = async () => {
    const started = spawn(command as string, args, {
      cwd: options.cwd,
      env: quiet,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    await waitUntilReady(`http://127.0.0.1:${port}${options.readyPath ?? '/'}`, started, () => output);
  };
  const stop = async () => {
    if (child) await stopGroup(child);
    await rm(work, { recursive: true, force: true });
  };
  // A port free when picked may be taken by another process (a parallel test's wrangler, an
  // outgoing connection) before wrangler binds it: a first start that meets "Address already in
  // use" tries again on new ports, unless the caller chose the port.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      const taken = /Address already in use/i.test(output);
      if (child) await stopGroup(child);
      if (!taken || options.port !== undefined || attempt === 3) {
        await stop();
        throw error;
      }
      output = '';
      port = await freePort();
      args = await argsFor(port);
    }
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    stateDir,
    output: () => output,
    pgid: () => child?.pid,
    async restart() {
      if (child) await stopGroup(child);
      await launch();
    },
    async crash() {
      if (child) await stopGroup(child, 'SIGKILL');
      await launch();
    },
    stop,
  };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const started = performance.now();
  const limit = budget(60_000);
  let lastError: unknown;
  while (performance.now() - started < limit) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
      lastError = `${response.status} ${await response.text()}`;
    } catch (error) {
      lastError = error; // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    slowStart(`wrangler dev to answer ${url}`, performance.now() - started, lastError, output()),
  );
}

/** `first` (SIGTERM) to the whole group (pnpm, wrangler, esbuild, workerd), then SIGKILL if it lingers. */
async function stopGroup(child: ChildProcess, first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal(first);
  const timer = setTimeout(() => signal('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
  // workerd may outlive its parent by a moment; make sure nothing of the group is left.
  signal('SIGKILL');
}

/**
 * A port nothing listens on at the moment, on loopback, below the kernel's ephemeral range
 * (32768 up): a port from there (`listen(0)`) may be handed to any process's outgoing connection
 * in the seconds before wrangler binds it, which on a busy machine failed a start with "Address
 * already in use".
 */
export async function freePort(besides: readonly number[] = []): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!besides.includes(port) && (await canListen(port))) return port;
  }
  throw new Error('no free port on 127.0.0.1 between 20000 and 32000 after 50 tries');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
