// Judges a conformance run against the checked-in expected-failures.json, and renders the tables
// the MCP guide (docs/guides/mcp.md) shows.
import type { RequirementSet, ScenarioOutcome } from './runner.js';

export const setUps = {
  node: 'Node: `serveMcpHttp`',
  worker: 'Worker: `/mcp` under `wrangler dev`',
} as const;
export type SetUp = keyof typeof setUps;

/** Each scenario's outcome, per requirement set and set-up. */
export type Runs = Record<RequirementSet, Record<SetUp, Map<string, ScenarioOutcome>>>;

/**
 * Per requirement set and set-up, each scenario expected to fail, with why: the reason itself, or
 * the name of one in `reasons` that many scenarios share (so flipping one is a one-line change).
 */
export type ExpectedFailures = { reasons: Record<string, string> } & Record<
  RequirementSet,
  Record<SetUp, Record<string, string>>
>;

const listFile = 'test/conformance/expected-failures.json';

/** Why `scenario` is expected to fail, or undefined when it is expected to pass. */
export function reasonFor(
  expected: ExpectedFailures,
  set: RequirementSet,
  setUp: SetUp,
  scenario: string,
): string | undefined {
  const listed = expected[set][setUp][scenario];
  return listed === undefined ? undefined : (expected.reasons[listed] ?? listed);
}

/** Every way the run differs from the list, each a sentence naming the fix. */
export function mismatches(
  set: RequirementSet,
  setUp: SetUp,
  outcomes: Map<string, ScenarioOutcome>,
  expected: ExpectedFailures,
): string[] {
  const listed = expected[set][setUp];
  const where = `"${set}" → "${setUp}" in ${listFile}`;
  const found: string[] = [];
  for (const [scenario, outcome] of outcomes) {
    if (outcome.status === 'pass' && scenario in listed)
      found.push(
        `[${set} ${setUp}] "${scenario}" passes now: remove it from ${where}, then run \`pnpm conformance:readme\`.`,
      );
    if (outcome.status === 'skipped' && scenario in listed)
      found.push(
        `[${set} ${setUp}] "${scenario}" is skipped by the runner now (no check of it runs): remove it from ${where}.`,
      );
    if (outcome.status === 'fail' && !(scenario in listed))
      found.push(
        `[${set} ${setUp}] "${scenario}" fails and is not listed in ${listFile}: ${outcome.problems.join('; ')}. ` +
          `Fix it, or add "${scenario}": "<reason>" under ${where}.`,
      );
  }
  for (const scenario of Object.keys(listed))
    if (!outcomes.has(scenario))
      found.push(
        `[${set} ${setUp}] "${scenario}" is no scenario of this runner's ${set} set: remove it from ${where}.`,
      );
  for (const [scenario, reason] of Object.entries(listed))
    if (/^[\w-]+$/.test(reason) && !(reason in expected.reasons))
      found.push(`[${set} ${setUp}] "${scenario}" names the reason "${reason}", which "reasons" lacks.`);
  return found;
}

/**
 * Per requirement set, the scenario × set-up table of a run that matched the list (so the list
 * decides each cell; each expected failure points to its numbered reason below the table), and a
 * count line per set-up with the runner's checks. Columns are padded as Biome formats Markdown,
 * so the MCP guide stays as `biome check` wants it.
 */
export function summaryTable(runs: Runs, expected: ExpectedFailures): string {
  const names = Object.keys(setUps) as SetUp[];
  const out: string[] = [];
  for (const set of Object.keys(runs) as RequirementSet[]) {
    const scenarios = [...runs[set][names[0]!].entries()];
    const reasons: string[] = [];
    const note = (reason: string) => {
      if (!reasons.includes(reason)) reasons.push(reason);
      return `expected failure (${reasons.indexOf(reason) + 1})`;
    };
    const rows = scenarios.map(([scenario, { notScored }]) => [
      `\`${scenario}\`${notScored ? ` (${notScored})` : ''}`,
      ...names.map((name) => {
        const reason = reasonFor(expected, set, name, scenario);
        if (reason !== undefined) return note(reason);
        return runs[set][name].get(scenario)!.status === 'skipped' ? 'skipped by the runner' : 'pass';
      }),
    ]);
    const header = ['Scenario', ...names.map((name) => setUps[name])];
    const widths = header.map((cell, column) =>
      Math.max(cell.length, ...rows.map((row) => row[column]!.length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
    out.push(
      `#### \`--requirements ${set}\``,
      '',
      line(header),
      line(widths.map((width) => '-'.repeat(width))),
      ...rows.map(line),
      '',
      ...names.map((name) => `- ${set} on ${name}: ${counts(runs[set][name])}.`),
      '',
      ...reasons.map((reason, index) => `${index + 1}. ${reason}`),
      ...(reasons.length ? [''] : []),
    );
  }
  return out.join('\n');
}

/**
 * Passing scenarios and checks (counted as the runner's summary counts them: passed of passed and
 * failed, warnings apart), for the required scenarios and for each kind the runner does not score.
 */
function counts(outcomes: Map<string, ScenarioOutcome>): string {
  const groups = new Map<string, ScenarioOutcome[]>();
  for (const outcome of outcomes.values()) {
    const group = outcome.notScored ? `${outcome.notScored} (not scored)` : 'required';
    groups.set(group, [...(groups.get(group) ?? []), outcome]);
  }
  return [...groups]
    .map(([group, members]) => {
      const tested = members.filter((member) => member.status !== 'skipped');
      const skipped = members.length - tested.length;
      const passed = tested.filter((member) => member.status === 'pass').length;
      const checks = (key: keyof ScenarioOutcome['checks']) =>
        members.reduce((sum, member) => sum + member.checks[key], 0);
      const warnings = checks('warnings');
      return (
        `${group} ${passed} of ${tested.length} scenarios${skipped ? ` (and ${skipped} skipped by the runner)` : ''}, ` +
        `${checks('passed')} of ${checks('passed') + checks('failed')} checks${warnings ? ` (and ${warnings} warning${warnings === 1 ? '' : 's'})` : ''}`
      );
    })
    .join('; ');
}
