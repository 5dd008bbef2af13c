// The official MCP conformance suite (server scenarios) against both MCP set-ups, judged against
// expected-failures.json: a scenario that fails unlisted, or passes while listed, fails the run.
// The table of the last matching run goes to results/summary.md and must be the README's.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev } from '../wrangler-dev.js';
import { type ExpectedFailures, mismatches, type SetUp, summaryTable } from './judge.js';
import { startNodeMcpServer } from './node-server.js';
import { ensureRunner, runConformance, type ScenarioOutcome } from './runner.js';
import { readmeSection } from './write-readme.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const expected = JSON.parse(await readFile(here('./expected-failures.json'), 'utf8')) as ExpectedFailures;
const runs = new Map<SetUp, Map<string, ScenarioOutcome>>();

beforeAll(ensureRunner, 180_000);

describe('the MCP conformance suite', () => {
  it('passes on serveMcp over Node every scenario not listed as an expected failure, and fails every listed one', async () => {
    const server = await startNodeMcpServer();
    try {
      runs.set('node', await runConformance(server.url));
    } finally {
      await server.stop();
    }
    expect(mismatches('node', runs.get('node')!, expected)).toEqual([]);
  });

  it("passes on the Worker's /mcp under wrangler dev every scenario not listed as an expected failure, and fails every listed one", async () => {
    const dev = await startWranglerDev({ cwd: here('..'), config: 'conformance/worker/wrangler.jsonc' });
    try {
      runs.set('worker', await runConformance(`${dev.url}/mcp`));
    } finally {
      await dev.stop();
    }
    expect(mismatches('worker', runs.get('worker')!, expected)).toEqual([]);
  });

  it("the README's MCP section shows the table of this run", async () => {
    const node = runs.get('node');
    const worker = runs.get('worker');
    expect(node && worker, 'both set-ups ran').toBeTruthy();
    expect([...node!.keys()], 'both set-ups ran the same scenarios').toEqual([...worker!.keys()]);
    const differences = [...mismatches('node', node!, expected), ...mismatches('worker', worker!, expected)];
    expect(differences, 'the table is made from the list, so the runs must match it').toEqual([]);
    const table = summaryTable([...node!.keys()], expected);
    await mkdir(here('./results'), { recursive: true });
    await writeFile(here('./results/summary.md'), table);
    const readme = readmeSection(await readFile(here('../../README.md'), 'utf8'));
    expect(readme, 'README.md is stale: run `pnpm conformance:readme`').toBe(table);
  });
});
