import type { Identity, Phase } from '@toolctx/core';
import { ok, type Reply, refuse } from '../door/door-error.js';

/**
 * One run as `GET /runs` lists it: what it is, kept beside the identity's other runs so a page
 * can show its history without waking each run's object.
 *
 * @experimental The run list (`GET /runs`) is new; its shape may still change.
 *
 * @example
 * ```ts
 * import type { RunPage, RunSummary } from '@toolctx/edge';
 * const headers = { authorization: 'Bearer …' };
 * const page = (await (await fetch('https://tools.example.com/runs', { headers })).json()) as RunPage;
 * const live: RunSummary[] = page.runs.filter((run) => !run.ended);
 * ```
 */
export interface RunSummary {
  runId: string;
  phase: Phase;
  sessionId?: string;
  /** When the run started, ms since the epoch. */
  createdAt: number;
  ended: boolean;
  /** When the run ended, ms since the epoch; it is listed until its retention window has passed. */
  endedAt?: number;
}

/**
 * A page of an identity's runs, newest first; `cursor`, when present, fetches the next page.
 *
 * @experimental The run list (`GET /runs`) is new; its shape may still change.
 *
 * @example
 * ```ts
 * import type { RunDirectory, RunPage } from '@toolctx/edge';
 * declare const runs: RunDirectory;
 * const ana = { tenant: 'acme', principal: 'ana' };
 * const first = await runs.list(ana, { limit: 10 });
 * if (first.ok && first.value.cursor) await runs.list(ana, { cursor: first.value.cursor, limit: 10 });
 * const page: RunPage | undefined = first.ok ? first.value : undefined;
 * ```
 */
export interface RunPage {
  runs: RunSummary[];
  cursor?: string;
}

/**
 * Where a page of runs starts and how long it is: `cursor` as the previous page answered it (none
 * for the newest), `limit` a whole number from 1 to 100 (default 20).
 *
 * @experimental The run list (`GET /runs`) is new; its shape may still change.
 *
 * @example
 * ```ts
 * import type { RunListOptions } from '@toolctx/edge';
 * const options: RunListOptions = { limit: 50 };
 * ```
 */
export interface RunListOptions {
  cursor?: string;
  limit?: number;
}

/**
 * A run as its identity's `IdentityStateObject` keeps it in the list: its summary and the identity
 * that owns it (the list answers only that identity).
 *
 * @experimental The run list (`GET /runs`) is new; its shape may still change.
 *
 * @example
 * ```ts
 * import type { ListedRun } from '@toolctx/edge';
 * const run: ListedRun = {
 *   runId: 'run_1',
 *   owner: { tenant: 'acme', principal: 'ana' },
 *   phase: 'act',
 *   createdAt: Date.now(),
 *   ended: false,
 * };
 * ```
 */
export type ListedRun = RunSummary & { owner: Identity };

export const defaultRunsPerPage = 20;
export const maxRunsPerPage = 100;

/**
 * A run's place in its identity's list: newest first, as keys sort (the start time counted down
 * from the largest 15-digit number), the run id breaking ties between runs of the same millisecond.
 */
export function positionOf(run: { createdAt: number; runId: string }): string {
  return `${String(999_999_999_999_999 - run.createdAt).padStart(15, '0')}:${run.runId}`;
}

const positionPattern = /^\d{15}:[A-Za-z0-9_.:-]{1,128}$/;
const cursorPattern = /^runs_([A-Za-z0-9_-]{1,400})$/;

/** The cursor of a page that ended at `position`: opaque to the caller, readable by {@link pageRequest}. */
export function cursorAt(position: string): string {
  return `runs_${btoa(position).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/**
 * The start position (the last one the previous page showed) and the page size of a request, or
 * a 400 naming what is wrong. A cursor only ever moves within the caller's own runs, so a forged
 * one can skip runs but never reach another identity's.
 */
export function pageRequest(options: RunListOptions = {}): Reply<{ after?: string; limit: number }> {
  const limit = options.limit ?? defaultRunsPerPage;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxRunsPerPage)
    return refuse(400, 'invalid-argument', `limit must be a whole number from 1 to ${maxRunsPerPage}.`, {
      limit: String(limit),
    });
  if (options.cursor === undefined) return ok({ limit });
  const match = cursorPattern.exec(options.cursor);
  let after: string | undefined;
  try {
    after = match ? atob(match[1]!.replaceAll('-', '+').replaceAll('_', '/')) : undefined;
  } catch {
    after = undefined;
  }
  if (after === undefined || !positionPattern.test(after))
    return refuse(
      400,
      'invalid-argument',
      'The cursor was not made by GET /runs. Pass the cursor of the previous page as is, or none to start over.',
    );
  return ok({ after, limit });
}

/**
 * A page from runs in list order, starting after the request's position: at most `limit` of
 * them, with a cursor when one more exists. Reads one entry past the page, never the rest.
 */
export function pageOf(ordered: Iterable<[position: string, run: ListedRun]>, limit: number): RunPage {
  const runs: RunSummary[] = [];
  let last: string | undefined;
  for (const [position, run] of ordered) {
    if (runs.length === limit) return { runs, cursor: cursorAt(last!) };
    runs.push(summaryOf(run));
    last = position;
  }
  return { runs };
}

/** The summary of a listed run: its owner is the caller, who needs no telling. */
export function summaryOf(run: ListedRun): RunSummary {
  const summary: RunSummary = {
    runId: run.runId,
    phase: run.phase,
    createdAt: run.createdAt,
    ended: run.ended,
  };
  if (run.sessionId !== undefined) summary.sessionId = run.sessionId;
  if (run.endedAt !== undefined) summary.endedAt = run.endedAt;
  return summary;
}
