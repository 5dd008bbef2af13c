import { expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';

/** One conformance case: a title that `expectedFailures` can name, and its body. */
export interface SuiteCase {
  title: string;
  run: () => Promise<void> | void;
}

/**
 * Registers cases with vitest. A case named in `expectedFailures` must fail: if it passes, the
 * suite fails, so a fixed driver cannot keep an outdated exemption. Names that match no case
 * fail too (a typo must not exempt nothing silently).
 */
export function registerCases(cases: readonly SuiteCase[], expectedFailures: readonly string[] = []): void {
  const expected = new Set(expectedFailures);
  for (const { title, run } of cases) {
    if (!expected.has(title)) {
      it(title, async () => {
        await run();
      });
      continue;
    }
    it(`${title} [expected to fail]`, async () => {
      let passed = false;
      try {
        await run();
        passed = true;
      } catch {
        // The failure this driver is known for.
      }
      expect(passed, `"${title}" is listed in expectedFailures but passed: remove it from the list.`).toBe(
        false,
      );
    });
  }
  const titles = new Set(cases.map((suiteCase) => suiteCase.title));
  const unknown = expectedFailures.filter((title) => !titles.has(title));
  it('expectedFailures name only cases of this suite', () => {
    expect(unknown, 'these expectedFailures match no case title').toEqual([]);
  });
}

/** The kind of a ToolctxError, also across two copies of the class (source and dist). */
export function errorKind(error: unknown): string | undefined {
  if (error instanceof ToolctxError) return error.kind;
  if (error instanceof Error && error.name === 'ToolctxError') {
    return (error as { info?: { kind?: string } }).info?.kind;
  }
  return undefined;
}

/** Asserts that `action` throws (or rejects with) a ToolctxError, of `kind` when given. */
export async function expectToolctxError(
  action: () => unknown,
  kind?: string,
  what = 'the call',
): Promise<void> {
  let thrown: unknown;
  let threw = false;
  try {
    await action();
  } catch (error) {
    thrown = error;
    threw = true;
  }
  expect(threw, `${what} should throw a ToolctxError${kind ? ` of kind ${kind}` : ''}`).toBe(true);
  const actual = errorKind(thrown);
  expect(actual, `${what} threw ${String(thrown)} instead of a ToolctxError`).toBeDefined();
  if (kind) expect(actual, `${what} threw the wrong kind`).toBe(kind);
}

/** A clock the test moves by hand. */
export interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
}

export function createTestClock(start = 1_700_000_000_000): TestClock {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}
