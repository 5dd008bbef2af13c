// What a run and each of its calls know: read by the tool context (tool-context.ts), implemented
// by the run (run.ts) and the call's state (call-state.ts); and the small facts every call shares:
// scope, ids, errors. Kept apart from the run, so neither the context nor the pipeline imports it.
import type { ArtifactMeta, ArtifactScope } from '../artifacts/types.js';
import type { AskAnswer } from '../ask/ask.js';
import type { CheckedAsk } from '../ask/check-ask.js';
import type { Identity, RunLedger } from '../context/types.js';
import type { Credential } from '../credentials/credential.js';
import type { secretRedactor } from '../credentials/redact-secrets.js';
import type { ErrorInfo } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import type { Effect, Phase } from '../policy/phase.js';
import type { TeardownRegistry } from '../teardown/teardown-registry.js';
import type { Workspace } from '../workspace/workspace.js';
import type { RuntimeServices } from './services.js';

/** What the run knows that every context of it shares. */
export interface RunFacts {
  readonly runId: string | undefined;
  readonly sessionId: string | undefined;
  readonly identity: Readonly<Identity> | undefined;
  readonly state: Readonly<Record<string, unknown>>;
  readonly phase: Phase;
  readonly log: EventLog;
  readonly stats: RunStats;
  readonly services: RuntimeServices;
  /** The artifact scope, derived from the identity the host established. */
  readonly scope: ArtifactScope;
  /** The key the conversation's taint is kept under. */
  readonly taintKey: string;
  /** Cleanups of the `call` and `run` scopes. */
  readonly teardown: TeardownRegistry;
  readonly ledger: RunLedger | undefined;
  readonly workspace: Workspace | undefined;
  /** Puts a call's ask (`key`: see `CallRecord.askKey`) to its user; rejects when `signal` fires. */
  ask(call: CallFacts, key: string, request: CheckedAsk, signal: AbortSignal): Promise<AskAnswer>;
  /** Notes an artifact a call saved (its meta) or deleted (its ref), for the call's settled record. */
  noteArtifact(call: CallFacts, change: ArtifactMeta | string): void;
}

/** Counters a run keeps of what it dropped. */
export interface RunStats {
  /** Progress reports and `ctx.log` entries filed after their call had settled. */
  reportsDropped: number;
  /** Progress reports and `ctx.log` entries refused because they were not plain data (or not a log entry). */
  reportsRejected: number;
}

/** What is particular to one call, filled in as the call passes its guards. */
export interface CallFacts {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly parentId: string | undefined;
  readonly iteration: number;
  readonly effect: Effect;
  wanted?: Readonly<Record<string, ArtifactMeta>>;
  credential?: Credential;
  /**
   * What redacts credential values from the call's reports: loaded with its first credential
   * (every credential a call holds came through `runCredentials`), so a call without one, the
   * common case, does not download it.
   */
  secretRedactor?: typeof secretRedactor;
  approval?: { readonly approvalId: string; readonly reason?: string };
  /** The caller's data for this call (`ctx.meta`). */
  meta?: Readonly<Record<string, unknown>>;
  /** Set once a cleanup of the `call` scope was registered, so only such calls fire one. */
  callTeardown?: boolean;
}

/**
 * The artifact scope of a run with this identity: tenant, principal and conversation — or, for an
 * anonymous run (neither tenant nor principal), a scope of its own that nobody else can name.
 * Doors use it to read artifacts back for the caller.
 *
 * @example
 * ```ts
 * import { artifactScope } from '@toolctx/core';
 * artifactScope({ tenant: 'acme', principal: 'ana' }); // { tenant: 'acme', principal: 'ana', conversation: '' }
 * ```
 */
export function artifactScope(identity: Readonly<Identity> | undefined, runId?: string): ArtifactScope {
  return scopeFor(identity, runId);
}

/**
 * Whether an identity names someone (a tenant or a principal): its artifacts and taint are its
 * own, shared by its runs and requests. Any other caller is anonymous.
 */
export function identified(identity: Readonly<Identity> | null | undefined): boolean {
  return identity?.tenant !== undefined || identity?.principal !== undefined;
}

export function scopeFor(identity: Readonly<Identity> | undefined, runId: string | undefined): ArtifactScope {
  if (!identified(identity)) {
    return {
      tenant: '',
      principal: `anonymous:${runId ?? nextCallId()}`,
      conversation: identity?.conversationId ?? '',
    };
  }
  const { tenant, principal, conversationId } = identity!;
  return { tenant: tenant ?? '', principal: principal ?? '', conversation: conversationId ?? '' };
}

/**
 * Whether other runs or calls can have the taint key of a run with these facts: an identified
 * one's (its identity's), or a door's session's (`anonymousScope`). Any other anonymous run's key
 * names it alone.
 */
export function sharesTaintKey(
  identity: Readonly<Identity> | undefined,
  runId: string | undefined,
  anonymousScope: string | undefined,
): boolean {
  if (identified(identity)) return true;
  return runId === undefined && anonymousScope !== undefined;
}

export const runEnded: ErrorInfo = {
  kind: 'aborted',
  message: 'The run has ended; start a new run.',
  retryable: false,
};
export const cancelledByCaller: ErrorInfo = {
  kind: 'aborted',
  message: 'The call was cancelled by its caller.',
  retryable: false,
};

// Call ids need to be unique, not secret: a random prefix per process and a counter. The prefix is
// made on first use because Workers refuse random values at module scope (the Worker fails to start).
let callIdPrefix: string | undefined;
let callCounter = 0;
export function nextCallId(): string {
  callIdPrefix ??= `call_${crypto.randomUUID().slice(0, 8)}_`;
  const n = ++callCounter;
  if (n < BLOCK) {
    digitsBelow[n] ??= n.toString(36);
    return callIdPrefix + digitsBelow[n];
  }
  // The counter in base 36 is its block's digits, shared by the block's 1,296 ids, then two
  // digits from a table: no number is formatted per call, and an id a sink keeps is one object,
  // not two (each object a sink keeps costs the call garbage-collection time).
  const low = n % BLOCK;
  const block = (n - low) / BLOCK;
  if (block !== idBlock) {
    idBlock = block;
    idBlockPrefix = callIdPrefix + block.toString(36);
  }
  twoDigits[low] ??= low.toString(36).padStart(2, '0');
  return idBlockPrefix + twoDigits[low];
}

const BLOCK = 36 * 36;
const digitsBelow: string[] = [];
const twoDigits: string[] = [];
let idBlock = -1;
let idBlockPrefix = '';
