import {
  type AuthInfo,
  type CallToolRequest,
  type CallToolResult,
  type ElicitationCompleteNotification,
  type Implementation,
  type InputRequiredResult,
  LOG_LEVEL_META_KEY,
  type LoggingMessageNotification,
  McpServer,
  type ProgressNotification,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import type { AskAnswer } from '../ask/ask.js';
import { deferAsks } from '../ask/defer-asks.js';
import { type LogEntry, type LogLevel, logLevels } from '../context/log-entry.js';
import type { Identity } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import type { Phase } from '../policy/phase.js';
import { randomId } from '../random-id.js';
import type { SavedArtifact } from '../runtime/call-book.js';
import type { CallOnceRequest, Runtime } from '../runtime/create-runtime.js';
import { type RemembersTaint, type SessionTaint, sessionTaint } from '../runtime/session-taint.js';
import {
  type ArtifactResourceOptions,
  artifactLinks,
  type McpExtra,
  mcpArtifactScopes,
  registerArtifactResources,
  servedArtifacts,
} from './artifact-resources.js';
import { mcpAskUser } from './ask-user.js';
import { toCallToolResult } from './content.js';
import { mcpDoor } from './door.js';
import { type DeclaredElicitation, noteDeclaredElicitation } from './elicit.js';
import { askingPerson } from './elicit-approval.js';
import { guardEmptyBatch } from './empty-batch.js';
import { type McpRounds, roundApproval } from './input-required.js';
import {
  createTaskResult,
  declaresTasks,
  type McpTaskHost,
  type McpTaskStart,
  serveTaskMethods,
  tasksExtension,
  tasksRequired,
} from './tasks.js';
import { toMcpTool } from './tool-metadata.js';
import { mcpProgressOf, toMcpLogMessage } from './wire.js';

/** What an MCP request tells the host about its caller, for {@link ServeMcpOptions.identify}. */
export interface McpCaller {
  /** Set when the transport authenticated the request (a bearer token the host verified). */
  authInfo?: AuthInfo;
  /** The MCP session id, when the transport has sessions. Caller data: never trust it alone. */
  sessionId?: string;
}

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions {
  /** The server's name and version in the MCP handshake. Default `{ name: 'toolctx', version: '0.1.0' }`. */
  serverInfo?: Implementation;
  /** Which tools are offered and allowed: in `plan`, only `read` tools. Default `act`. */
  phase?: Phase;
  /** The identity calls run with, established from what the transport authenticated. */
  identify?: (caller: McpCaller) => Identity | undefined;
  /**
   * Options for the SDK's `Server`. The JSON Schema validator defaults to the cfworker one, which
   * works in Workers, browsers and Node (the SDK's default, ajv, compiles code and fails in Workers).
   */
  serverOptions?: ServerOptions;
  /**
   * How the runtime's artifacts are served as resources, when it has an artifact store (bounds
   * on `resources/read` and `resources/list`); `false` serves none.
   */
  artifactResources?: false | ArtifactResourceOptions;
  /**
   * Runs each `tools/call` under the trace context its client sent (W3C `traceparent` and
   * `tracestate` in the request's `_meta`), so the call's span is a child of the client's:
   * `otelTraceContext` from `@toolctx/core/otel`, with the OpenTelemetry sink and a context
   * manager registered. Default: calls start under whatever context is active.
   */
  traceContext?: McpTraceContext;
}

/**
 * Runs `call` under the trace context of a W3C `traceparent` (and `tracestate`), as an MCP
 * request's `_meta` carries them: see {@link ServeMcpOptions.traceContext}.
 *
 * @example
 * ```ts
 * import type { McpTraceContext } from '@toolctx/core/mcp';
 * const untraced: McpTraceContext = (_carrier, call) => call();
 * ```
 */
export type McpTraceContext = <T>(
  carrier: { traceparent: string; tracestate?: string },
  call: () => Promise<T>,
) => Promise<T>;

/**
 * Serves a runtime's tools over MCP with the official SDK: `tools/list` gives each tool's JSON
 * Schema, its `title`, annotations from its `effect` (`read` → `readOnlyHint`; `write` →
 * `destructiveHint`; `send` → `destructiveHint` and `openWorldHint`) and its `outputSchema`;
 * `tools/call` runs it through the MCP door (no run id, teardown scope `call`). A result's content
 * parts (`withParts`) go as MCP content (`text`, `image`, `audio`, `resource`, `resource_link`),
 * any other result as its transcript text; an object value goes as `structuredContent`. A
 * failure is an `isError` result carrying the `ErrorInfo` (in `structuredContent.error` and
 * `_meta['toolctx/error']`); `ctx.progress` becomes `notifications/progress` when the client sent a
 * progress token; `ctx.log` becomes `notifications/message` (the server declares `logging`; from
 * the level the client set with `logging/setLevel` up, every level until it sets one); both travel
 * on the call's own response stream, before its result. The client's `notifications/cancelled`
 * fires the tool's `ctx.signal`.
 *
 * With an artifact store in the runtime, the server declares `resources` and serves artifacts as
 * resources with the SDK's own `registerResource`, under the template `toolctx://artifacts/{ref}`:
 * `resources/list` lists the caller's artifacts (at most `maxListed`, default 500) and
 * `resources/read` reads one (text for a textual media type, else a base64 `blob`; one larger than
 * `maxReadBytes`, default 1 MiB, is refused before it is read). They are scoped as the HTTP door's
 * `GET /artifacts/:ref` is: an identified caller (from `identify`) sees its identity's artifacts;
 * an anonymous one those of its MCP session (a connection such as stdio is one session; a
 * stateless HTTP request has none, and sees none). Another scope's ref answers the same
 * "Resource … not found" as a ref that never existed. A successful call that saved artifacts
 * carries a `resource_link` to each (at most 20) after its content, and the server sends
 * `notifications/resources/list_changed`.
 *
 * A call that needs approval (`needsApproval`, or the trifecta asks) goes to the runtime's approval
 * port first. When the port answers `'pending'` and the client declared `elicitation` (form mode),
 * the person is asked with `elicitation/create` on the call's own stream, in words (the tool's
 * title and name, what it does and can touch, its arguments one a line) with a form holding one
 * optional note: accept approves, decline denies (`approval-denied`), cancel ends the call as
 * `aborted`; no answer within the tool's timeout (10 minutes without one), or an answer that does
 * not fit the form, denies. The decision covers this call only, through the runtime's one-use
 * token bound to the call and the hash of its arguments. Without the capability the call answers
 * `approval-pending`, which no one can resume (an MCP call has no run).
 *
 * A tool's `ctx.ask` becomes `elicitation/create` on the call's own stream, for a client that
 * declared elicitation: a form ask as a form (`requestedSchema` is the ask's schema; `mode: 'form'`,
 * left out for a client that declared elicitation bare), a URL ask in URL mode (only for a client
 * that declared `elicitation.url`) with the ask's id as its `elicitationId`. The client's
 * `{ action, content }` reaches the tool as `{ action, values }`, checked against the ask first
 * (values that do not fit: the ask throws `invalid-argument`, naming each problem). Over MCP a URL
 * ask's `accept` says the person agreed to open the page; the server sends
 * `notifications/elicitation/complete` for it once the tool has gone on (it asks again, or its
 * call ends). Any other client, or a URL ask to a client without URL mode, gets `unsupported` from
 * the ask, naming the capability to declare; uncaught, the call's result is an `isError` result
 * saying so. The call's cancellation, or the ask's window passing, withdraws the question
 * (`notifications/cancelled` for it): the ask rejects, or answers `cancel` when its window passed.
 *
 * Returns an `McpServer` (from `@modelcontextprotocol/server`, the SDK v2) to `connect()` to any
 * MCP transport that serves the 2025-11-25 protocol (stdio, `WebStandardStreamableHTTPServerTransport`,
 * in memory). Resources, prompts and completions may be added as usual with the SDK's
 * `registerResource` and `registerPrompt`, next to the artifacts (with a store, the SDK's own
 * `resources/*` handlers are installed; pass `artifactResources: false` to set low-level ones).
 * Its `registerTool` throws: the runtime answers `tools/list` and `tools/call`, so a host's tool is
 * a `defineTool` in the runtime, and another server's tools come in with `mcpTools(client)`.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { serveMcp } from '@toolctx/core/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
 * declare const countWords: AnyTool;
 *
 * const server = serveMcp(createRuntime({ tools: [countWords] }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function serveMcp(runtime: Runtime, options: ServeMcpOptions = {}): McpServer {
  return mcpServer(runtime, options, 'legacy');
}

/** Who the server says it is without `serverInfo`. */
export const defaultServerInfo = { name: 'toolctx', version: '0.1.0' };

// The runtime at the MCP door, one per runtime: a stateless server is made per request, and the
// door's runtime (its services and sinks at the door) is the same for each.
const doorRuntimes = new WeakMap<Runtime, Runtime>();
function mcpDoorOf(runtime: Runtime): Runtime {
  let door = doorRuntimes.get(runtime);
  if (!door) {
    door = runtime.withDoor(mcpDoor);
    doorRuntimes.set(runtime, door);
  }
  return door;
}

/**
 * The server of one protocol era: `legacy` (2025-11-25, a connection or session that initialized)
 * or `modern` (2026-07-28, one stateless request, every request carrying its own `_meta`). A
 * modern server has no `logging/setLevel` (a request names its log level in `_meta`, and gets no
 * log entries without one) and no session to remember taint in.
 */
export function mcpServer(
  runtime: Runtime,
  options: ServeMcpOptions,
  era: 'legacy' | 'modern',
  rounds?: McpRounds,
  tasks?: McpTasks,
): McpServer {
  const door = mcpDoorOf(runtime);
  const phase = options.phase ?? 'act';
  const server = new McpServer(options.serverInfo ?? defaultServerInfo, {
    ...options.serverOptions,
    ...(rounds ? { requestState: { verify: rounds.verify } } : {}),
    capabilities: {
      ...options.serverOptions?.capabilities,
      tools: {},
      logging: {},
      ...(tasks
        ? { extensions: { ...options.serverOptions?.capabilities?.extensions, [tasksExtension]: {} } }
        : {}),
    },
    jsonSchemaValidator: options.serverOptions?.jsonSchemaValidator ?? new CfWorkerJsonSchemaValidator(),
  });
  refuseSdkTools(server);
  const low = server.server;
  const store = servedArtifacts(runtime, options);
  if (tasks) serveTaskMethods(low, tasks.host, tasks.ownerOf, store !== undefined);
  const callerOf = (ctx: McpExtra): McpCaller => ({
    ...(ctx.http?.authInfo ? { authInfo: ctx.http.authInfo } : {}),
    ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
  });
  const scopes = mcpArtifactScopes((extra) => options.identify?.(callerOf(extra)));
  // What this server's calls raised, for its later calls: one server serves one session (or one
  // stateless request), and the memory goes with it.
  const taint: SessionTaint = new Map();
  const declared: DeclaredElicitation = { bare: false };
  if (store) registerArtifactResources(server, store, scopes.scopeOf, options.artifactResources || {});
  // The level each session asked for. The SDK keeps one too, but only for `sendLoggingMessage`,
  // which sends on the session's standalone stream; a call's log entries belong on its own stream.
  const levels = new Map<string | undefined, LogLevel>();
  if (era === 'legacy') {
    low.setRequestHandler('logging/setLevel', (request, ctx) => {
      levels.set(ctx.sessionId, request.params.level);
      return {};
    });
  }
  const leastLevel = (extra: McpExtra): LogLevel | undefined => {
    if (era === 'legacy') return levels.get(extra.sessionId) ?? 'debug';
    const asked = (extra.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY];
    return logLevels.includes(asked as LogLevel) ? (asked as LogLevel) : undefined;
  };
  // The phase decides which tools are offered; each is listed with its title and annotations.
  low.setRequestHandler('tools/list', () => ({
    tools: door.listTools({ phase }).map(({ name }) => toMcpTool(door.tools.get(name)!)),
  }));
  low.setRequestHandler('tools/call', (request, extra): Promise<CallToolResult | InputRequiredResult> => {
    const { traceparent, tracestate } = (extra.mcpReq._meta ?? {}) as Record<string, unknown>;
    if (!options.traceContext || typeof traceparent !== 'string') return callTool(request, extra);
    const carrier = { traceparent, ...(typeof tracestate === 'string' ? { tracestate } : {}) };
    return options.traceContext(carrier, () => callTool(request, extra));
  });
  async function callTool(
    request: CallToolRequest,
    extra: ServerContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    const progressToken = extra.mcpReq._meta?.progressToken;
    const progressOf = mcpProgressOf();
    // Notifications are chained so the last one is on the wire before the result it precedes.
    let sent: Promise<void> = Promise.resolve();
    const send = (
      notification: ProgressNotification | LoggingMessageNotification | ElicitationCompleteNotification,
    ) => {
      sent = sent.then(() => extra.mcpReq.notify(notification)).catch(() => {});
    };
    const onEvent = (event: ToolEvent) => {
      if (event.type === 'tool.log') {
        const entry = event.data as LogEntry;
        const least = leastLevel(extra);
        if (least && logLevels.indexOf(entry.level) >= logLevels.indexOf(least))
          send({ method: 'notifications/message', params: toMcpLogMessage(entry) });
      } else if (event.type === 'tool.progress' && progressToken !== undefined) {
        const { payload, n } = event.data as { payload: unknown; n: number };
        send({ method: 'notifications/progress', params: { progressToken, ...progressOf(payload, n) } });
      }
    };
    const links = artifactLinks(server, store, scopes.scopeOf(extra));
    const { signal, decidePending } = askingPerson(
      low,
      door.tools.get(request.params.name),
      extra.mcpReq,
      declared,
    );
    // Pages the person agreed to open: the tool is done waiting on one once it asks again or ends.
    const pages: string[] = [];
    const pagesDone = () => {
      for (const elicitationId of pages.splice(0))
        send({ method: 'notifications/elicitation/complete', params: { elicitationId } });
    };
    const ask = mcpAskUser(low, extra.mcpReq.send, declared, (elicitationId) => pages.push(elicitationId));
    const call: CallOnceRequest & RemembersTaint = {
      tool: request.params.name,
      args: request.params.arguments ?? {},
      signal,
      phase,
      identity: options.identify?.(callerOf(extra)),
      sessionId: extra.sessionId,
      anonymousScope: scopes.anonymousScope(extra),
      onEvent: links.watch(onEvent),
      ...(decidePending ? { decidePending } : {}),
      askUser: async (open, signal) => {
        // The page's completion goes out before the next question.
        pagesDone();
        await sent;
        return ask(open, signal);
      },
      [sessionTaint]: taint,
    };
    if (era === 'modern') {
      const tool = door.tools.get(call.tool);
      const support = tool?.taskSupport ?? 'optional';
      const asTask =
        tasks !== undefined && tool !== undefined && support !== 'forbidden' && declaresTasks(extra);
      if (tool && support === 'required' && !asTask) throw tasksRequired();
      // MCP 2026: the call's asks end the round as input_required; the retry runs the same call
      // again with every answer so far.
      const { toolCallId, answers } = rounds
        ? await rounds.resume(extra, call.tool, call.args)
        : { toolCallId: randomId('call_'), answers: {} };
      const round = { tool: call.tool, args: call.args, toolCallId, answers };
      if (asTask) {
        const waitMs = support === 'required' ? 0 : (tool.taskWindowMs ?? tasks.windowMs);
        const start = { tool: call.tool, args: call.args, answers, identity: call.identity, phase, waitMs };
        return taskOrResult(tasks, extra, start, round, rounds, links);
      }
      if (!rounds) return links.addTo(toCallToolResult(await door.callOnce(call)));
      const askUser = deferAsks(answers);
      const approval = roundApproval(tool, toolCallId, answers);
      const result = await door.callOnce({ ...call, toolCallId, askUser, decidePending: approval });
      await sent;
      const asked = !result.ok && result.error.kind === 'input-required' ? askUser.deferred : undefined;
      const approving = !result.ok && result.error.kind === 'approval-pending' ? approval.asked : undefined;
      if (asked || approving) return rounds.inputRequired(extra, round, asked ?? [approving!]);
      return links.addTo(toCallToolResult(result));
    }
    const result = await door.callOnce(call);
    pagesDone();
    await sent;
    return links.addTo(toCallToolResult(result));
  }
  // JSON-RPC 2.0's answer to `[]`, which the SDK's HTTP transports would take as nothing to do.
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    guardEmptyBatch(transport);
    // The SDK sets the transport's `onmessage` and then starts it: the first message is seen here.
    const start = transport.start.bind(transport);
    transport.start = () => {
      noteDeclaredElicitation(transport, declared);
      return start();
    };
    return connect(transport);
  };
  return server;
}

/** The tasks of a 2026 server: where they live, whose they are, and how long a call runs before it is one. */
export interface McpTasks {
  host: McpTaskHost;
  ownerOf: (ctx: ServerContext) => string;
  /** How long an `optional` tool's call runs before it becomes a task, in ms (a tool's `taskWindowMs` wins). */
  windowMs: number;
}

/**
 * A call of a client that declared the Tasks extension, started as a task: what it came to within
 * its window — the result itself, or an `input_required` round for what it asked (the task then
 * goes, and the retry starts it again with the answers), for an `optional` tool — or the task.
 */
async function taskOrResult(
  tasks: McpTasks,
  ctx: ServerContext,
  start: Omit<McpTaskStart, 'owner'>,
  round: { tool: string; args: unknown; toolCallId: string; answers: Record<string, AskAnswer> },
  rounds: McpRounds | undefined,
  links: { addTo(result: CallToolResult, saved?: SavedArtifact[]): Promise<CallToolResult> },
): Promise<CallToolResult | InputRequiredResult> {
  const owner = tasks.ownerOf(ctx);
  const task = await tasks.host.start({ ...start, owner });
  const { status, result, asks } = task;
  if (start.waitMs > 0 && status !== 'working') {
    const askNow = status === 'input_required' && rounds !== undefined && asks?.length;
    if (askNow || (result && status !== 'input_required')) {
      if (askNow) await tasks.host.cancel(owner, task.taskId);
      await tasks.host.forget(owner, task.taskId);
      if (askNow) return rounds.inputRequired(ctx, round, asks);
      return links.addTo(toCallToolResult(result!), task.artifacts ?? []);
    }
  }
  return createTaskResult(task) as never;
}

/**
 * The SDK's `registerTool` installs its own `tools/list` and `tools/call`, which would replace the
 * runtime's, and its callback can answer neither core's errors nor a task: a host's tools are
 * runtime tools. Refused at once, naming the ways in.
 */
function refuseSdkTools(server: McpServer): void {
  server.registerTool = ((name: string) => {
    throw new Error(
      `registerTool("${name}"): serveMcp serves the runtime's tools/list and tools/call, so the SDK's registerTool cannot add tools beside them. Define the tool with defineTool and pass it to createRuntime({ tools }); to serve another MCP server's tools, add mcpTools(client) to the runtime's tools. Prompts, resources and completions stay on the SDK's own API.`,
    );
  }) as McpServer['registerTool'];
}
