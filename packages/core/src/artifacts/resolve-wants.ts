import type { ErrorInfo } from '../errors.js';
import { ToolctxError } from '../errors.js';
import { isRef } from './ref.js';
import type { ArtifactMeta, ArtifactScope, ArtifactStore } from './types.js';

/** Why one wanted argument was refused. */
export interface WantProblem {
  arg: string;
  reason: 'not-a-ref' | 'missing' | 'expired' | 'wrong-kind' | 'digest-mismatch' | 'store-failed';
  ref?: string;
  expected: string;
  actual?: string;
  message: string;
}

/** What {@link resolveWants} answers: the arguments with data in place of refs, and the metas. */
export type WantsResolution =
  | { ok: true; args: Record<string, unknown>; wanted: Record<string, ArtifactMeta> }
  | { ok: false; error: ErrorInfo };

const MAX_VALID = 10;
const MAX_LIST_PAGES = 10;

async function judge(
  store: ArtifactStore,
  scope: ArtifactScope,
  arg: string,
  kind: string,
  value: unknown,
): Promise<{ meta: ArtifactMeta; data: unknown } | WantProblem> {
  const problem = (reason: WantProblem['reason'], message: string, extra: Partial<WantProblem> = {}) =>
    ({ arg, reason, expected: kind, message, ...extra }) satisfies WantProblem;
  if (!isRef(value)) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
    return problem(
      'not-a-ref',
      `\`${arg}\` must be an artifact ref (art_ and 22 letters or digits), got ${shown}.`,
    );
  }
  try {
    const found = await store.get(scope, value);
    if (!found) {
      const expired = (await store.wasExpired?.(scope, value)) ?? false;
      return expired
        ? problem('expired', `\`${arg}\`: artifact ${value} has expired.`, { ref: value })
        : problem('missing', `\`${arg}\`: no artifact ${value} in this conversation.`, { ref: value });
    }
    if (found.meta.kind !== kind) {
      return problem(
        'wrong-kind',
        `\`${arg}\`: artifact ${value} is a "${found.meta.kind}", not a "${kind}".`,
        {
          ref: value,
          actual: found.meta.kind,
        },
      );
    }
    return { meta: found.meta, data: found.data };
  } catch (error) {
    if (error instanceof ToolctxError && error.kind === 'integrity-failed') {
      return problem('digest-mismatch', `\`${arg}\`: artifact ${value} is corrupt (digest mismatch).`, {
        ref: value,
      });
    }
    const name = error instanceof Error ? error.name : typeof error;
    return problem('store-failed', `\`${arg}\`: the artifact store failed (${name}) reading ${value}.`, {
      ref: value,
    });
  }
}

/** Up to ten live refs of `kind` in the scope, from a bounded number of pages. */
async function validRefs(store: ArtifactStore, scope: ArtifactScope, kind: string): Promise<string[]> {
  const refs: string[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_LIST_PAGES && refs.length < MAX_VALID; page++) {
      const listed = await store.list(scope, cursor === undefined ? { limit: 100 } : { cursor, limit: 100 });
      for (const meta of listed.artifacts)
        if (meta.kind === kind && refs.length < MAX_VALID) refs.push(meta.ref);
      cursor = listed.cursor;
      if (cursor === undefined) break;
    }
  } catch {
    // The refusal itself matters more than the suggestions: answer with what was found.
  }
  return refs;
}

/**
 * Resolves a tool's `wants` before execute: every declared argument is judged before answering,
 * and each present ref is replaced by its data. An argument that is absent (`undefined`) is left
 * alone: the input schema decides whether it was required. A refusal is an `artifact-refused`
 * ErrorInfo whose `details.problems` lists each problem (not a ref, missing, expired, wrong kind,
 * digest mismatch) and whose `details.valid[arg]` lists up to ten refs of the wanted kind.
 */
export async function resolveWants(
  store: ArtifactStore,
  scope: ArtifactScope,
  wants: Record<string, string>,
  args: Record<string, unknown>,
): Promise<WantsResolution> {
  const declared = Object.entries(wants).filter(([arg]) => args[arg] !== undefined);
  const judged = await Promise.all(
    declared.map(
      async ([arg, kind]) => [arg, kind, await judge(store, scope, arg, kind, args[arg])] as const,
    ),
  );
  const problems: WantProblem[] = [];
  const newArgs: Record<string, unknown> = { ...args };
  const wanted: Record<string, ArtifactMeta> = {};
  for (const [arg, , verdict] of judged) {
    if ('reason' in verdict) problems.push(verdict);
    else {
      newArgs[arg] = verdict.data;
      wanted[arg] = verdict.meta;
    }
  }
  if (problems.length === 0) return { ok: true, args: newArgs, wanted };
  const valid: Record<string, string[]> = {};
  for (const problem of problems) valid[problem.arg] = await validRefs(store, scope, problem.expected);
  const lines = problems.map((problem) => {
    const refs = valid[problem.arg]!;
    const hint = refs.length
      ? ` Valid "${problem.expected}" refs: ${refs.join(', ')}.`
      : ` No "${problem.expected}" artifact exists here yet.`;
    return problem.message + hint;
  });
  return {
    ok: false,
    error: {
      kind: 'artifact-refused',
      message: `Artifact argument${problems.length > 1 ? 's' : ''} refused. ${lines.join(' ')}`,
      retryable: problems.some((problem) => problem.reason === 'store-failed'),
      details: { problems, valid },
    },
  };
}
