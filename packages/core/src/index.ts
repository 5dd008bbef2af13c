/**
 * `@toolctx/core`: the execution context for AI-agent tool calls, on web standards only.
 *
 * Define tools with {@link defineTool}, serve them with {@link createRuntime}, call them through
 * a run, and watch what they do through the run's events. This entry is the runtime and every
 * contract type; the rest ships apart so a page pays only for what it imports:
 * `@toolctx/core/status` (the live-status model), `@toolctx/core/memory` (in-memory ports),
 * `@toolctx/core/ports` (helpers for writing a port), `@toolctx/core/sse` (server-sent events,
 * written and read), `@toolctx/core/mcp`, `@toolctx/core/ai-sdk` and `@toolctx/core/testing`.
 *
 * @example
 * ```ts
 * import { createRuntime, defineTool } from '@toolctx/core';
 * import { z } from 'zod';
 *
 * const countWords = defineTool({
 *   name: 'count_words',
 *   description: 'Counts the words in a text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
 * });
 * const run = createRuntime({ tools: [countWords] }).startRun();
 * const result = await run.call({ tool: 'count_words', args: { text: 'one two' } });
 * ```
 * @module
 */
export {
  type AnthropicTool,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
  type OpenAiToolsOptions,
  type ToolListOptions,
  type ToolSource,
  toAnthropicTools,
  toOpenAiResponsesTools,
  toOpenAiTools,
} from './adapters/index.js';
export type { ApprovalPort, ApprovalRequest } from './approval/approval.js';
export type { ApprovalDecision } from './approval/approval-decision.js';
export type { OpenApproval, PendingApproval, PendingApprovalStore } from './approval/pending-approvals.js';
export { mayAskApproval, type NeedsApproval } from './approval/requires-approval.js';
export { artifactFieldLimits } from './artifacts/field-limits.js';
export type {
  ArtifactData,
  ArtifactEncoding,
  ArtifactLimits,
  ArtifactMeta,
  ArtifactOrigin,
  ArtifactPage,
  ArtifactPut,
  ArtifactScope,
  ArtifactStore,
  ArtifactStoreCapabilities,
  ArtifactStreamPut,
  JsonValue,
} from './artifacts/types.js';
export type {
  Answered,
  AnswerRefusal,
  AskAnswer,
  AskBooleanField,
  AskChoiceField,
  AskField,
  AskForm,
  AskFormAnswer,
  AskMultiChoiceField,
  AskNumberField,
  AskRequest,
  AskSchema,
  AskTextField,
  AskUrl,
  AskUser,
  AskValue,
  OpenAsk,
} from './ask/ask.js';
export type { CachePort } from './cache/cache-port.js';
export { type ContentPart, type ToolParts, withParts } from './content/content-part.js';
export type { ToolArtifacts } from './context/bound-artifacts.js';
export { type LogEntry, type LogLevel, logLevels } from './context/log-entry.js';
export type {
  CallRequest,
  Identity,
  ProgressPayload,
  RunLedger,
  ToolDispatch,
  ToolExecutionContext,
  ToolResult,
} from './context/types.js';
export type { Credential } from './credentials/credential.js';
export type {
  CredentialAnswer,
  CredentialProvider,
  CredentialRequest,
  CredentialSubject,
} from './credentials/credential-provider.js';
export type { AuthorizationUrlHandler, CredentialsAccess } from './credentials/credentials-access.js';
export { type ErrorInfo, type ErrorKind, ToolctxError } from './errors.js';
export {
  type CatalogueEventType,
  checkEvent,
  type EventData,
  type EventDataMap,
  type EventType,
  eventCatalogue,
  type ToolEvent,
} from './events/catalogue.js';
export type { EventSink, RunEvents, SinkErrorHandler, SinkOrigin } from './events/event-log.js';
export type { Ledger, LedgerEntry } from './ledger/ledger.js';
export type { EgressPolicy } from './policy/egress.js';
export type { Effect, Phase } from './policy/phase.js';
export type { ResultTaint, Taint, TaintLeg, TaintReads } from './policy/taint.js';
export type { TrifectaMode } from './policy/trifecta.js';
export { plainDataLimits } from './progress/plain-data.js';
export type {
  CallHandle,
  CallRecord,
  CallStatus,
  CallStore,
  KeptResult,
  LinkedResult,
  SavedArtifact,
} from './runtime/call-book.js';
export { callHandleOf } from './runtime/call-book.js';
export {
  type CallOnceRequest,
  createRuntime,
  type Runtime,
  type RuntimeOptions,
} from './runtime/create-runtime.js';
export { type DoorDeclaration, inProcessDoor } from './runtime/door.js';
export { artifactScope, type ResumeOptions, type Run, type StartRunOptions } from './runtime/run.js';
export type { CallableRun, Decided } from './runtime/run-api.js';
export type { DecisionRefusal } from './runtime/run-approvals.js';
export type { RunStats } from './runtime/run-facts.js';
export type { SecurityOptions } from './runtime/runtime-options.js';
export { type TeardownKeyFacts, teardownKey } from './teardown/teardown-key.js';
export type { TeardownScope } from './teardown/teardown-registry.js';
export {
  type AnyTool,
  defineTool,
  type RetryPolicy,
  type Tool,
  type ToolDefinition,
  type ToolIcon,
  type ToolSchema,
  toolSchema,
} from './tools/define-tool.js';
export type { ArgumentIssue, JsonSchema } from './tools/schema.js';
export { unknownToolError } from './tools/unknown-tool.js';
export { withWorkspace } from './workspace/with-workspace.js';
export type { Workspace } from './workspace/workspace.js';
