// What the consumer tests share: fresh npm projects outside the repository, installed from the
// packed tarballs (never workspace links), the README's blocks copied by their markers, and strict
// TypeScript checks as a user's project would set them.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { budget, slowdown, waitUntil } from '../slowdown.js';
import { freePort } from '../wrangler-dev.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the three tarballs `pnpm pack` wrote (see pack.ts). */
    packs: string;
  }
}

/** The versions every project shape installs, exact, so a run is repeatable. */
export const versions = {
  typescript: '5.9.3',
  '@types/node': '20.19.43',
  zod: '4.6.7',
  vite: '8.3.8',
  wrangler: '4.86.0',
  '@cloudflare/workers-types': '4.20260426.1',
  '@cloudflare/workers-oauth-provider': '1.2.3',
  // Older than the workspace's 4.13: an app on hono 4.12 must get one copy.
  hono: '4.12.7',
  '@hono/node-server': '2.1.9',
  '@modelcontextprotocol/server': '2.4.0',
  '@modelcontextprotocol/client': '2.4.0',
  // ai's declarations import 'json-schema' without depending on its types; with skipLibCheck
  // false a user of the AI SDK adds them.
  '@types/json-schema': '7.0.15',
  react: '19.3.1',
  'react-dom': '19.3.1',
  '@types/react': '19.3.3',
  '@types/react-dom': '19.3.0',
  '@vitejs/plugin-react': '6.3.1',
  svelte: '5.59.1',
  '@sveltejs/vite-plugin-svelte': '7.3.2',
  'svelte-check': '4.7.8',
  vue: '3.5.46',
  '@vitejs/plugin-vue': '6.1.1',
  'vue-tsc': '3.3.14',
} as const;

/** The tarball of `@toolctx/<name>`, as `file:` for a package.json. */
export async function tarball(name: 'core' | 'browser' | 'edge'): Promise<string> {
  const packs = inject('packs');
  const file = (await readdir(packs)).find((entry) => entry.startsWith(`toolctx-${name}-`));
  if (!file) throw new Error(`no tarball of @toolctx/${name} in ${packs}`);
  return `file:${join(packs, file)}`;
}

/** npm settings a parent `npm test` passes down (npm_config_*) must not steer the user's npm. */
export const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)),
) as NodeJS.ProcessEnv;

/** Runs a command, failing with everything it printed. */
export async function sh(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv,
      timeout: budget(options.timeout ?? 120_000),
      maxBuffer: 32 * 1024 * 1024,
    });
  } catch (error) {
    const {
      stdout = '',
      stderr = '',
      killed,
    } = error as { stdout?: string; stderr?: string; killed?: boolean };
    const how = killed
      ? `was stopped after ${budget(options.timeout ?? 120_000)} ms (the machine's slowdown ${slowdown})`
      : 'failed';
    throw new Error(`${command} ${args.join(' ')} ${how} in ${options.cwd}:\n${stdout}\n${stderr}`);
  }
}

/** A fresh npm project in the OS temp folder with these dependencies installed by npm. */
export async function npmProject(
  shape: string,
  dependencies: Record<string, string>,
  devDependencies: Record<string, string>,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `toolctx-consumer-${shape}-`));
  const pkg = { name: `consumer-${shape}`, private: true, type: 'module', dependencies, devDependencies };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  // --prefer-offline: what npm's cache holds from an earlier project of this run is not asked for again.
  await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    timeout: 300_000,
  });
  return dir;
}

/** Writes files (paths relative to `dir`), making folders as needed. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** The READMEs and the guides (docs/guides/), whose quick starts the consumer projects copy. */
async function docsWithBlocks(): Promise<string[]> {
  const guides = (await readdir(join(root, 'docs/guides'))).filter((name) => name.endsWith('.md'));
  return [
    'README.md',
    ...guides.map((name) => `docs/guides/${name}`),
    'packages/core/README.md',
    'packages/browser/README.md',
    'packages/edge/README.md',
  ];
}

/**
 * A block of a README or guide by its marker (`<!-- example: docs/examples/tools.ts -->`,
 * `<!-- install: web-app -->`), verbatim. A marker shown in several of them shows the same block in
 * each (`docs/scripts/check-examples.mjs` checks it), so the first is the one.
 */
export async function readmeBlock(marker: string): Promise<string> {
  for (const readme of await docsWithBlocks()) {
    const text = await readFile(join(root, readme), 'utf8');
    const at = text.indexOf(`<!-- ${marker} -->`);
    if (at === -1) continue;
    const block = /```\w*\n([\s\S]*?)```\n/.exec(text.slice(at));
    if (block?.[1] !== undefined) return block[1];
  }
  throw new Error(`no README or guide block marked <!-- ${marker} -->`);
}

/** The package names an `npm install` line of a README block installs (tarballs as @toolctx/NAME). */
export function installedNames(block: string): string[] {
  return block
    .split('\n')
    .filter((line) => line.startsWith('npm install '))
    .flatMap((line) => line.split(/\s+/).slice(2))
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/^.*toolctx-(core|browser|edge)-[\d.]+\.tgz$/, '@toolctx/$1'));
}

/** The strict settings a careful user's tsconfig has: the declarations of every package are checked. */
export const strictOptions = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
} as const;

/** Type-checks `files` in `dir` with the strict settings plus `options`; fails with tsc's output. */
export async function typecheck(
  dir: string,
  name: string,
  files: string[],
  options: Record<string, unknown>,
): Promise<void> {
  const config = `tsconfig.${name}.json`;
  await writeFile(
    join(dir, config),
    JSON.stringify({ compilerOptions: { ...strictOptions, ...options }, files }, null, 2),
  );
  await sh(join(dir, 'node_modules/.bin/tsc'), ['-p', config], { cwd: dir });
}

/** Builds the vite app in `dir` and serves it with `vite preview` on loopback until `stop()`. */
export async function viteBuildAndPreview(dir: string): Promise<{ url: string; stop(): void }> {
  const vite = join(dir, 'node_modules/.bin/vite');
  await sh(vite, ['build', '--logLevel', 'error'], { cwd: dir });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const preview: ChildProcess = spawn(
    vite,
    ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: dir, env: cleanEnv, detached: true, stdio: 'ignore' },
  );
  const stop = () => {
    if (preview.pid && preview.exitCode === null) process.kill(-preview.pid, 'SIGTERM');
  };
  try {
    await waitUntil(() => fetch(url).then((response) => response.ok || undefined), {
      what: `vite preview to answer ${url}`,
      ms: 30_000,
      every: 200,
    });
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}
