import type { ApprovalPort } from '../approval/approval.js';
import type { ArtifactStore } from '../artifacts/types.js';
import type { CachePort } from '../cache/cache-port.js';
import { createSafeCache } from '../cache/safe-cache.js';
import type { CredentialProvider } from '../credentials/credential-provider.js';
import type { AuthorizationUrlHandler } from '../credentials/credentials-access.js';
import type { EventSink, SinkErrorHandler } from '../events/event-log.js';
import type { Ledger } from '../ledger/ledger.js';
import type { EgressPolicy } from '../policy/egress.js';
import { createTaintTracker, type TaintTracker } from '../policy/taint.js';
import type { TrifectaMode } from '../policy/trifecta.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { Workspace } from '../workspace/workspace.js';
import type { DoorDeclaration } from './door.js';
import type { RuntimeOptions } from './runtime-options.js';
import { createSessionTeardown, type SessionTeardown, sessionsAt } from './session-teardown.js';
import { type ToolPlan, toolPlans } from './tool-plan.js';

/**
 * The ports and policies a runtime was given, and the state it keeps across runs (taint, session
 * cleanups): one set per runtime, shared by every run and call at every door.
 */
export interface SharedServices {
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** What a call needs of each tool, by name, made once. */
  readonly plans: ReadonlyMap<string, ToolPlan>;
  readonly sinks: readonly EventSink[];
  readonly onSinkError: SinkErrorHandler;
  readonly artifacts: ArtifactStore | undefined;
  readonly credentials: CredentialProvider | undefined;
  readonly onAuthorizationUrl: AuthorizationUrlHandler | undefined;
  readonly approval: ApprovalPort | undefined;
  readonly cache: CachePort | undefined;
  readonly ledger: Ledger | undefined;
  readonly workspace: Workspace | undefined;
  readonly outputBudgetBytes: number;
  readonly egress: EgressPolicy;
  readonly trifecta: TrifectaMode;
  readonly taint: TaintTracker;
  readonly teardownTimeoutMs: number;
  readonly sessions: SessionTeardown;
}

/** The runtime's shared services as seen through one door: only the door's declaration differs. */
export interface RuntimeServices extends SharedServices {
  readonly door: DoorDeclaration;
}

/** What `createServices` takes: the runtime's options after the tool set was checked. */
export type ServiceOptions = Omit<RuntimeOptions, 'tools' | 'door' | 'sinks' | 'onSinkError'> & {
  tools: ReadonlyMap<string, AnyTool>;
  sinks: readonly EventSink[];
  onSinkError: SinkErrorHandler;
};

/** Default transcript budget per batch, in bytes of UTF-8. */
export const defaultOutputBudgetBytes = 32_000;

export function createServices(options: ServiceOptions): SharedServices {
  const teardownTimeoutMs = options.teardownTimeoutMs ?? 5_000;
  return {
    tools: options.tools,
    plans: toolPlans(options.tools),
    sinks: options.sinks,
    onSinkError: options.onSinkError,
    artifacts: options.artifacts,
    credentials: options.credentials,
    onAuthorizationUrl: options.onAuthorizationUrl,
    approval: options.approval,
    cache: options.cache && createSafeCache(options.cache, (error) => reportPortFailure('cache', error)),
    ledger: options.ledger,
    workspace: options.workspace,
    outputBudgetBytes: options.outputBudgetBytes ?? defaultOutputBudgetBytes,
    egress: options.security?.egress ?? {},
    trifecta: options.security?.trifecta ?? 'block',
    taint: createTaintTracker(),
    teardownTimeoutMs,
    sessions: createSessionTeardown(teardownTimeoutMs, options.sinks, options.onSinkError),
  };
}

/** The shared services at `door`: every field is the same object, except the door and its scope check. */
export function servicesAt(shared: SharedServices, door: DoorDeclaration): RuntimeServices {
  return { ...shared, door, sessions: sessionsAt(shared.sessions, door) };
}

function reportPortFailure(port: string, error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  console.warn(`toolctx: the ${port} failed (${name}); calls go on as if it missed.`);
}
