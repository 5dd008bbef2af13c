// The ratchet of expected-failures.json, on made-up outcomes: a listed scenario that passes (or is
// skipped now), an unlisted one that fails, and a listed one the runner lacks each fail the run;
// a shared reason is written once and shown once per table.
import { describe, expect, it } from 'vitest';
import { type ExpectedFailures, mismatches, summaryTable } from './judge.js';
import type { ScenarioOutcome } from './runner.js';

const pass: ScenarioOutcome = { status: 'pass', problems: [], checks: { passed: 2, failed: 0, warnings: 0 } };
const fail: ScenarioOutcome = {
  status: 'fail',
  problems: ['tools-list: No valid session'],
  checks: { passed: 0, failed: 2, warnings: 1 },
};
const skipped: ScenarioOutcome = {
  status: 'skipped',
  problems: [],
  checks: { passed: 0, failed: 0, warnings: 0 },
};

const listed = (entries: Record<string, string>): ExpectedFailures => ({
  reasons: { 'not-served': '2026-07-28 not served yet (issue 36)' },
  '2025-11-25': { node: {}, worker: {} },
  '2026-07-28': { node: entries, worker: entries },
});

describe('the conformance judge', () => {
  it('accepts a run that matches the list, a shared reason named by its key', () => {
    const run = new Map([
      ['tools-list', fail],
      ['ping', pass],
      ['tasks-status-notifications', skipped],
    ]);
    expect(mismatches('2026-07-28', 'node', run, listed({ 'tools-list': 'not-served' }))).toEqual([]);
  });

  it('fails the run when a listed scenario passes, or is skipped by the runner now', () => {
    const run = new Map([
      ['tools-list', pass],
      ['tasks-status-notifications', skipped],
    ]);
    const found = mismatches(
      '2026-07-28',
      'node',
      run,
      listed({ 'tools-list': 'not-served', 'tasks-status-notifications': 'not-served' }),
    );
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('"tools-list" passes now: remove it from "2026-07-28" → "node"');
    expect(found[1]).toContain('"tasks-status-notifications" is skipped by the runner now');
  });

  it('fails the run when an unlisted scenario fails, a listed one is missing, or a reason key is unknown', () => {
    const run = new Map([['tools-list', fail]]);
    expect(mismatches('2026-07-28', 'worker', run, listed({}))[0]).toContain(
      '"tools-list" fails and is not listed in test/conformance/expected-failures.json: tools-list: No valid session',
    );
    const found = mismatches(
      '2026-07-28',
      'worker',
      run,
      listed({ 'tools-list': 'no-such-reason', gone: 'not-served' }),
    );
    expect(found).toEqual([
      expect.stringContaining('"gone" is no scenario of this runner\'s 2026-07-28 set'),
      expect.stringContaining('"tools-list" names the reason "no-such-reason", which "reasons" lacks'),
    ]);
  });

  it('writes a table per requirement set, each shared reason once, and the counts per set-up', () => {
    const run = () =>
      new Map<string, ScenarioOutcome>([
        ['tools-list', fail],
        ['ping', pass],
        ['tasks-lifecycle', { ...fail, notScored: 'extension' }],
        ['tasks-status-notifications', { ...skipped, notScored: 'extension' }],
      ]);
    const expected = listed({ 'tools-list': 'not-served', 'tasks-lifecycle': 'not-served' });
    const table = summaryTable(
      {
        '2025-11-25': { node: new Map([['ping', pass]]), worker: new Map([['ping', pass]]) },
        '2026-07-28': { node: run(), worker: run() },
      },
      expected,
    );
    expect(table).toContain('#### `--requirements 2025-11-25`');
    expect(table).toMatch(
      /\| `tasks-lifecycle` \(extension\) +\| expected failure \(1\) +\| expected failure \(1\) +\|/,
    );
    expect(table).toMatch(/\| `tasks-status-notifications` \(extension\) \| skipped by the runner +\|/);
    expect(table.match(/not served yet/g)).toHaveLength(1);
    expect(table).toContain(
      '- 2026-07-28 on worker: required 1 of 2 scenarios, 2 of 4 checks (and 1 warning); ' +
        'extension (not scored) 0 of 1 scenarios (and 1 skipped by the runner), 0 of 2 checks (and 1 warning).',
    );
  });
});
