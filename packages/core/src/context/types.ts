import type { ArtifactMeta } from '../artifacts/types.js';
import type { AskAnswer, AskForm, AskFormAnswer, AskUrl } from '../ask/ask.js';
import type { CachePort } from '../cache/cache-port.js';
import type { ContentPart } from '../content/content-part.js';
import type { Credential } from '../credentials/credential.js';
import type { CredentialsAccess } from '../credentials/credentials-access.js';
import type { ErrorInfo } from '../errors.js';
import type { Phase } from '../policy/phase.js';
import type { Taint } from '../policy/taint.js';
import type { TeardownScope } from '../teardown/teardown-registry.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ToolArtifacts } from './bound-artifacts.js';
import type { LogLevel } from './log-entry.js';

/** Who a run acts for, as the HOST established it (authentication), never taken from a caller's body. */
export interface Identity {
  tenant?: string;
  principal?: string;
  conversationId?: string;
}

/**
 * A progress report: any plain data that survives `structuredClone`. A top-level string `message`
 * is shown verbatim; `done` and `total` drive a progress bar.
 */
export type ProgressPayload =
  | { message?: string; done?: number; total?: number; [key: string]: unknown }
  | string
  | number
  | boolean
  | null;

/** What a call resolves to. A call never rejects for a tool's own failure. */
export type ToolResult<Value = unknown> =
  | {
      ok: true;
      /** The tool's own return value. */
      value: Value;
      /**
       * The transcript copy a model reads: text, cut to the output budget. With `parts`, the parts
       * written as text, each binary payload as a note naming its kind, media type and size.
       */
      content: string;
      /** The content parts the tool returned (`withParts`), checked; absent when it returned none. */
      parts?: ContentPart[];
      /** Set when the whole result was too big for the budget and saved as an artifact. */
      spilled?: { ref?: string; bytes: number; keptBytes: number };
    }
  | { ok: false; error: ErrorInfo };

/** Asks the runtime to call a tool. */
export interface CallRequest {
  /** The tool's name. */
  tool: string;
  /** Its arguments, validated against the tool's input schema before it runs. */
  args: unknown;
  /** The model's id for this call; a fresh one is made when absent. */
  toolCallId?: string;
  /** Cancels this call (together with the run's signal and the tool's timeout). */
  signal?: AbortSignal;
  /** Data for this call alone, which the tool reads as `ctx.meta` (the run's `state` is for every call). */
  meta?: Readonly<Record<string, unknown>>;
}

/** Calls another tool of the same runtime as a child of the current call. */
export interface ToolDispatch {
  /**
   * Runs the tool in the same run and phase, linked to this call by `parentId`; this call's
   * signal reaches it. Approval is not inherited. Its failure is data: a `ToolResult`.
   */
  call(request: Omit<CallRequest, 'toolCallId'>): Promise<ToolResult>;
}

/**
 * The context each tool call receives as the second argument of `execute`, built fresh per call.
 *
 * Absent and empty are different facts: `runId` is absent where there is no run (an MCP call);
 * `tools` is absent at a door with no dispatch.
 *
 * Once the call has settled (finished, failed, cancelled, timed out) it can read but no longer
 * act: artifact, workspace and cache writes, `ledger.record`, `fetch` and `emit` refuse with a
 * `call-settled` ToolctxError, `tools.call` answers one as data, and `progress` and `log` are
 * dropped. A put
 * still in flight then is deleted again when the store answers.
 */
export interface ToolExecutionContext {
  /** The run this call belongs to; absent where the door has no runs. */
  readonly runId?: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** How many batches the run has started, this call's batch included. */
  readonly iteration: number;
  readonly sessionId?: string;
  readonly identity?: Readonly<Identity>;
  /** Read-only data from the host, shared by every call of the run. */
  readonly state: Readonly<Record<string, unknown>>;
  /**
   * Read-only data the caller passed with this call alone (`run.call({ meta })`, `run.resume`'s
   * `meta`); absent when it passed none. `toAiSdkTools` puts the AI SDK's execute options here
   * under `aiSdk` (see `AiSdkCallMeta`).
   */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * Fires when the run is cancelled, the caller aborts, the parent call ends or this tool's timeout
   * passes. Made on first read. A tool that ignores it is still settled when it fires.
   */
  readonly signal: AbortSignal;
  /**
   * Reports live progress. Synchronous; never throws, blocks or changes the result. The values of
   * the credentials the call holds are replaced by `[redacted]` wherever they occur in the report,
   * URL-encoded and in base64 or base64url too (also inside a longer base64 text, such as a Basic
   * auth header); so is the message and `details` of a `ToolctxError` the call fails with.
   */
  progress(payload: ProgressPayload): void;
  /**
   * Files a log entry as a `tool.log` event: MCP clients receive it as `notifications/message`
   * (from the level they set with `logging/setLevel` up), every other door as an event. A report
   * like `progress`: synchronous, never throws, blocks or changes the result. The message is cut
   * at 1,000 graphemes; `data` must be plain data. An entry with an unknown level, a message that
   * is not a string or data that is not plain is dropped, counted in `stats.reportsRejected` and
   * said why in a `tool.report_rejected` event; one filed after the call settled is dropped and
   * counted in `stats.reportsDropped`. The values of the credentials the call holds (its
   * `needs`, and any `ctx.credentials.get` gave it) are replaced by `[redacted]` wherever they
   * occur, as in `progress` and `emit`.
   *
   * @example
   * ```ts
   * import { defineTool } from '@toolctx/core';
   * import { z } from 'zod';
   * export const sync = defineTool({
   *   name: 'sync',
   *   description: 'Syncs a folder.',
   *   inputSchema: z.object({ folder: z.string() }),
   *   execute: async ({ folder }, ctx) => {
   *     ctx.log('warning', 'Skipped a file that is too large.', { folder, file: 'video.mp4' });
   *     return 'synced';
   *   },
   * });
   * ```
   */
  log(level: LogLevel, message: string, data?: unknown): void;
  /**
   * Files a custom event as `custom.<type>` (`type` may carry the `custom.` prefix already).
   * The name is 1 to 64 characters of `a-z`, `0-9`, `_`, `.` and `-`, the first a letter or digit
   * (`/^[a-z0-9][a-z0-9_.-]{0,63}$/`), so it is safe in an SSE `event:` line; `data` must be plain
   * data. Throws a TypeError naming the problem otherwise, and a `call-settled` ToolctxError once
   * the call has ended. The values of the credentials the call holds are replaced by `[redacted]`
   * wherever they occur in the data.
   *
   * @example
   * ```ts
   * import { defineTool } from '@toolctx/core';
   * import { z } from 'zod';
   * export const crawl = defineTool({
   *   name: 'crawl',
   *   description: 'Crawls a site.',
   *   inputSchema: z.object({ url: z.string() }),
   *   execute: async ({ url }, ctx) => {
   *     ctx.emit('page.fetched', { url }); // files custom.page.fetched
   *     return url;
   *   },
   * });
   * ```
   */
  emit(type: string, data?: unknown): void;
  /** Calls another tool as a child call; absent at doors with no dispatch. */
  readonly tools?: ToolDispatch;
  /** `plan` or `act`; child calls inherit it. */
  readonly phase: Phase;
  /** What the conversation has seen so far: private data, untrusted input. */
  readonly taint: Readonly<Taint>;

  /**
   * The claim-check store, bound to this run's scope. Without a store every verb throws; see
   * `hasArtifacts`. The credentials the call holds are redacted from a saved artifact's `label`,
   * `kind` and `mediaType` as from `progress`; its data is kept as given.
   */
  readonly artifacts: ToolArtifacts;
  readonly hasArtifacts: boolean;
  /** The metadata of each argument declared in `wants`, resolved from a ref before execute. */
  readonly wanted?: Readonly<Record<string, ArtifactMeta>>;

  /** The credential the tool declared in `needs`, resolved before execute. */
  readonly credential?: Credential;
  /** Asks for a credential while running. Without a provider it throws; see `hasCredentials`. */
  readonly credentials: CredentialsAccess;
  readonly hasCredentials: boolean;

  /** The one-use approval that covers this call only, when it needed one. */
  readonly approval?: { readonly approvalId: string; readonly reason?: string };

  /**
   * Asks the call's user mid-call and waits for the answer: a form (`{ message, schema }`, flat
   * fields an MCP form can show; the values are checked against it before the tool sees them) or
   * a page to visit (`{ message, url }`, for anything sensitive; `accept` says only that they
   * finished). While it waits the call is `input_required`, its `timeoutMs` does not run (the
   * ask's `windowMs` does: when it passes, the answer is `cancel`) and `ctx.signal` still cancels
   * it. One ask at a time. Throws `invalid-argument` for a form no door can show, `unsupported`
   * where there is no one to ask (a call outside a run, an MCP client without elicitation, an AI
   * SDK loop with no person), and `call-settled` once the call has ended.
   *
   * @example
   * ```ts
   * import { defineTool } from '@toolctx/core';
   * import { z } from 'zod';
   *
   * const transfer = defineTool({
   *   name: 'transfer',
   *   description: 'Moves money between two of the user’s accounts.',
   *   inputSchema: z.object({ amount: z.number() }),
   *   effect: 'write',
   *   async execute({ amount }, ctx) {
   *     const answer = await ctx.ask({
   *       message: `Move ${amount} EUR from which account?`,
   *       schema: {
   *         type: 'object',
   *         properties: { from: { type: 'string', title: 'Account', enum: ['checking', 'savings'] } },
   *         required: ['from'],
   *       },
   *     });
   *     if (answer.action !== 'accept') return { moved: false, why: answer.action };
   *     return { moved: true, from: answer.values.from };
   *   },
   * });
   * ```
   */
  ask(request: AskForm): Promise<AskFormAnswer>;
  /**
   * Sends the call's user to a page (a sign-in, a payment) and waits until they say they finished
   * (`accept`), declined or cancelled; what they enter there never passes through the call. As
   * the form ask, otherwise.
   *
   * @example
   * ```ts
   * import type { ToolExecutionContext } from '@toolctx/core';
   * declare const ctx: ToolExecutionContext;
   * const answer = await ctx.ask({ message: 'Connect your calendar.', url: 'https://calendar.example.com/connect' });
   * const connected = answer.action === 'accept';
   * ```
   */
  ask(request: AskUrl): Promise<AskAnswer>;

  /**
   * Registers a cleanup for the end of a scope: `call`, `run`, `session` or `shutdown`, as far as
   * the door honours them (`teardownScopes`). It fires exactly once, however the call ended; the
   * first registration of a tool per scope wins. Returns the key it registered under,
   * `teardownKey(ctx, scope)`: the key to keep the scope's state under.
   */
  onTeardown(cleanup: () => unknown, options: { scope: TeardownScope }): string;
  /** The teardown scopes this door honours. */
  readonly teardownScopes: readonly TeardownScope[];

  /** Spending of this run, when the host wired a ledger: record costs here. */
  readonly ledger?: RunLedger;
  readonly cache?: CachePort;
  readonly workspace?: Workspace;

  /**
   * `fetch` guarded by the security policy (domain lists; loopback, private, link-local and
   * metadata addresses refused) and the taint check, with this call's signal. For `send` tools.
   * (`string | URL | Request`, not the DOM's `RequestInfo`, which Node's types do not declare.)
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}

/** The ledger as a tool sees it: bound to its run. */
export interface RunLedger {
  /** Records a cost once: the same `entryId` again with the same amount is a no-op. */
  record(entry: { entryId: string; usd: number; label?: string }): Promise<void>;
  /** What the run has spent so far. */
  totalUsd(): Promise<number>;
}
