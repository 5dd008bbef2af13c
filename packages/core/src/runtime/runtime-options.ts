// The options a runtime is made with, apart from the function that makes it, so that the services
// built from them (services.ts) and the run that reads those do not import createRuntime.
import type { ApprovalPort } from '../approval/approval.js';
import type { ArtifactStore } from '../artifacts/types.js';
import type { CachePort } from '../cache/cache-port.js';
import type { CredentialProvider } from '../credentials/credential-provider.js';
import type { AuthorizationUrlHandler } from '../credentials/credentials-access.js';
import type { EventSink, SinkErrorHandler } from '../events/event-log.js';
import type { Ledger } from '../ledger/ledger.js';
import type { EgressPolicy } from '../policy/egress.js';
import type { TrifectaMode } from '../policy/trifecta.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { Workspace } from '../workspace/workspace.js';
import type { DoorDeclaration } from './door.js';

/** The security policy of a runtime. */
export interface SecurityOptions {
  /** Where `ctx.fetch` may go. Loopback, private, link-local and metadata addresses are refused unless allowed. */
  egress?: EgressPolicy;
  /** What a `send` tool meets while a conversation holds both private and untrusted data. Default `block`. */
  trifecta?: TrifectaMode;
}

/** Options of `createRuntime`. */
export interface RuntimeOptions {
  /** The tools this runtime serves, each made with `defineTool`. Names must be unique. */
  tools: readonly AnyTool[];
  /** The claim-check store behind `ctx.artifacts`, `wants` and spilled results. */
  artifacts?: ArtifactStore;
  /** Resolves the credentials tools declare in `needs`, and `ctx.credentials.get`. */
  credentials?: CredentialProvider;
  /** Receives authorization URLs (never put in events or results), to show the person. */
  onAuthorizationUrl?: AuthorizationUrlHandler;
  /** Asks a person to approve calls of tools with `needsApproval`. */
  approval?: ApprovalPort;
  /** Backs tool-level `cache: { ttlMs }`, and `ctx.cache`. A failing cache acts as a miss. */
  cache?: CachePort;
  /** Records spending (`ctx.ledger`), checked against a run's `maxUsd`. */
  ledger?: Ledger;
  /** Files tools can read and write through `ctx.workspace`. */
  workspace?: Workspace;
  /** Transcript bytes per batch, shared equally by its calls. Default 32,000. */
  outputBudgetBytes?: number;
  /** Egress policy for `ctx.fetch`, and the trifecta rule for `send` tools. */
  security?: SecurityOptions;
  /** Longest a single cleanup may take, in milliseconds. Default 5,000. */
  teardownTimeoutMs?: number;
  /** Receive every event of every run. Synchronous and quick; a sink that throws is detached. */
  sinks?: readonly EventSink[];
  /** Told once about each sink that threw and was detached. Default: `console.warn`. */
  onSinkError?: SinkErrorHandler;
  /** The door this runtime serves through. Default: the in-process door. */
  door?: DoorDeclaration;
}
