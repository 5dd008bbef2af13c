// The official MCP conformance suite (server scenarios) against both MCP set-ups, for both frozen
// requirement sets (2025-11-25, and 2026-07-28 with the Tasks extension's scenarios), judged against
// expected-failures.json: a scenario that fails unlisted, or passes while listed, fails the run.
// The tables of the last matching run go to results/summary.md and must be the MCP guide's.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev } from '../wrangler-dev.js';
import { type ExpectedFailures, mismatches, type Runs, type SetUp, summaryTable } from './judge.js';
import { startNodeMcpServer } from './node-server.js';
import {
  ensureRunner,
  type RequirementSet,
  requirementSets,
  runConformance,
  type ScenarioOutcome,
} from './runner.js';
import { guide, readmeSection } from './write-readme.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const expected = JSON.parse(await readFile(here('./expected-failures.json'), 'utf8')) as ExpectedFailures;
const runs = Object.fromEntries(requirementSets.map((set) => [set, {}])) as Record<
  RequirementSet,
  Partial<Record<SetUp, Map<string, ScenarioOutcome>>>
>;

/** Both requirement sets against one server, at once (each a runner process of its own). */
async function runBothSets(setUp: SetUp, url: string): Promise<void> {
  await Promise.all(
    requirementSets.map(async (set) => {
      runs[set][setUp] = await runConformance(url, set);
    }),
  );
}

const judged = (setUp: SetUp) =>
  requirementSets.flatMap((set) => mismatches(set, setUp, runs[set][setUp]!, expected));

beforeAll(ensureRunner, 180_000);

describe('the MCP conformance suite', () => {
  it('passes on serveMcp over Node, for both requirement sets, every scenario not listed as an expected failure, and fails every listed one', async () => {
    const server = await startNodeMcpServer();
    try {
      await runBothSets('node', server.url);
    } finally {
      await server.stop();
    }
    expect(judged('node')).toEqual([]);
  });

  it("passes on the Worker's /mcp under wrangler dev, for both requirement sets, every scenario not listed as an expected failure, and fails every listed one", async () => {
    const dev = await startWranglerDev({ cwd: here('..'), config: 'conformance/worker/wrangler.jsonc' });
    try {
      await runBothSets('worker', `${dev.url}/mcp`);
    } finally {
      await dev.stop();
    }
    expect(judged('worker')).toEqual([]);
  });

  it('runs the ten tasks-* scenarios of the Tasks extension with the 2026-07-28 set', () => {
    const tasks = [...(runs['2026-07-28'].node?.keys() ?? [])].filter((name) => name.startsWith('tasks-'));
    expect(tasks).toHaveLength(10);
  });

  it('the MCP guide shows the tables of this run', async () => {
    for (const set of requirementSets) {
      const { node, worker } = runs[set];
      expect(node && worker, `both set-ups ran ${set}`).toBeTruthy();
      expect([...node!.keys()], `both set-ups ran the same scenarios of ${set}`).toEqual([...worker!.keys()]);
    }
    const differences = [...judged('node'), ...judged('worker')];
    expect(differences, 'the tables are made from the list, so the runs must match it').toEqual([]);
    const table = summaryTable(runs as Runs, expected);
    await mkdir(here('./results'), { recursive: true });
    await writeFile(here('./results/summary.md'), table);
    const shown = readmeSection(await readFile(here(`../../${guide}`), 'utf8'));
    expect(shown, `${guide} is stale: run \`pnpm conformance:readme\``).toBe(table);
  });
});
