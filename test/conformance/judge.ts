// Judges a conformance run against the checked-in expected-failures.json, and renders the table
// the README's MCP section shows.
import type { ScenarioOutcome } from './runner.js';

export const setUps = {
  node: 'Node: `serveMcp` + SDK Streamable HTTP',
  worker: 'Worker: `/mcp` under `wrangler dev`',
} as const;
export type SetUp = keyof typeof setUps;

/** Per set-up, each scenario expected to fail, with why. */
export type ExpectedFailures = Record<SetUp, Record<string, string>>;

const listFile = 'test/conformance/expected-failures.json';

/** Every way the run differs from the list, each a sentence naming the fix. */
export function mismatches(
  setUp: SetUp,
  outcomes: Map<string, ScenarioOutcome>,
  expected: ExpectedFailures,
): string[] {
  const listed = expected[setUp];
  const found: string[] = [];
  for (const [scenario, outcome] of outcomes) {
    if (outcome.passed && scenario in listed)
      found.push(
        `[${setUp}] "${scenario}" passes now: remove "${scenario}" from "${setUp}" in ${listFile}, then run \`pnpm conformance:readme\`.`,
      );
    if (!outcome.passed && !(scenario in listed))
      found.push(
        `[${setUp}] "${scenario}" fails and is not listed in ${listFile}: ${outcome.problems.join('; ')}. ` +
          `Fix it, or add "${scenario}": "<reason>" under "${setUp}".`,
      );
  }
  for (const scenario of Object.keys(listed))
    if (!outcomes.has(scenario))
      found.push(
        `[${setUp}] "${scenario}" is no scenario of this runner: remove it from "${setUp}" in ${listFile}.`,
      );
  return found;
}

/**
 * The scenario × set-up table, for a run that matched the list (so the list alone decides it):
 * each expected failure points to its numbered reason below the table. Columns are padded as
 * Biome formats Markdown, so the README stays as `biome check` wants it.
 */
export function summaryTable(scenarios: string[], expected: ExpectedFailures): string {
  const names = Object.keys(setUps) as SetUp[];
  const reasons: string[] = [];
  const note = (reason: string) => {
    if (!reasons.includes(reason)) reasons.push(reason);
    return `expected failure (${reasons.indexOf(reason) + 1})`;
  };
  const rows = scenarios.map((scenario) => [
    `\`${scenario}\``,
    ...names.map((name) => {
      const reason = expected[name][scenario];
      return reason === undefined ? 'pass' : note(reason);
    }),
  ]);
  const header = ['Scenario', ...names.map((name) => setUps[name])];
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  const passing = names.map(
    (name) =>
      `${scenarios.filter((scenario) => !(scenario in expected[name])).length} of ${scenarios.length} on ${name}`,
  );
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    `Scenarios passing: ${passing.join(', ')}.`,
    '',
    ...reasons.map((reason, index) => `${index + 1}. ${reason}`),
    '',
  ].join('\n');
}
