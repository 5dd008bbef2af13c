import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ContentBlock,
  type Implementation,
  ListToolsRequestSchema,
  type LoggingMessageNotification,
  type ProgressNotification,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { type LogEntry, type LogLevel, logLevels } from '../context/log-entry.js';
import type { Identity, ToolResult } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import type { Phase } from '../policy/phase.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { toMcpContent } from './content.js';
import { mcpDoor } from './door.js';
import { toMcpTool } from './tool-metadata.js';
import { errorMetaKey, toMcpLogMessage, toMcpProgress } from './wire.js';

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
}

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
 * Returns an `McpServer` to `connect()` to any MCP transport. Its tools come from the runtime, so
 * do not `registerTool` on it; resources and prompts may be added as usual.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { serveMcp } from '@toolctx/core/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * declare const countWords: AnyTool;
 *
 * const server = serveMcp(createRuntime({ tools: [countWords] }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function serveMcp(runtime: Runtime, options: ServeMcpOptions = {}): McpServer {
  const door = runtime.withDoor(mcpDoor);
  const phase = options.phase ?? 'act';
  const server = new McpServer(options.serverInfo ?? { name: 'toolctx', version: '0.1.0' }, {
    ...options.serverOptions,
    jsonSchemaValidator: options.serverOptions?.jsonSchemaValidator ?? new CfWorkerJsonSchemaValidator(),
  });
  const low = server.server;
  low.registerCapabilities({ tools: {}, logging: {} });
  // The level each session asked for. The SDK keeps one too, but only for `sendLoggingMessage`,
  // which sends on the session's standalone stream; a call's log entries belong on its own stream.
  const levels = new Map<string | undefined, LogLevel>();
  low.setRequestHandler(SetLevelRequestSchema, (request, extra) => {
    levels.set(extra.sessionId, request.params.level);
    return {};
  });
  // The phase decides which tools are offered; each is then listed with its title and annotations.
  low.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: door.listTools({ phase }).map(({ name }) => toMcpTool(door.tools.get(name)!)),
  }));
  low.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = extra._meta?.progressToken;
    // Notifications are chained so the last one is on the wire before the result it precedes.
    let sent: Promise<void> = Promise.resolve();
    const send = (notification: ProgressNotification | LoggingMessageNotification) => {
      sent = sent.then(() => extra.sendNotification(notification)).catch(() => {});
    };
    const onEvent = (event: ToolEvent) => {
      if (event.type === 'tool.log') {
        const entry = event.data as LogEntry;
        const least = levels.get(extra.sessionId) ?? 'debug';
        if (logLevels.indexOf(entry.level) >= logLevels.indexOf(least))
          send({ method: 'notifications/message', params: toMcpLogMessage(entry) });
      } else if (event.type === 'tool.progress' && progressToken !== undefined) {
        const { payload, n } = event.data as { payload: unknown; n: number };
        send({ method: 'notifications/progress', params: { progressToken, ...toMcpProgress(payload, n) } });
      }
    };
    const caller: McpCaller = {
      ...(extra.authInfo ? { authInfo: extra.authInfo } : {}),
      ...(extra.sessionId ? { sessionId: extra.sessionId } : {}),
    };
    const result = await door.callOnce({
      tool: request.params.name,
      args: request.params.arguments ?? {},
      signal: extra.signal,
      phase,
      identity: options.identify?.(caller),
      sessionId: extra.sessionId,
      onEvent,
    });
    await sent;
    return toCallToolResult(result);
  });
  return server;
}

function toCallToolResult(result: ToolResult): CallToolResult {
  if (!result.ok) {
    return {
      isError: true,
      content: [{ type: 'text', text: result.error.message }],
      structuredContent: { error: result.error },
      _meta: { [errorMetaKey]: result.error },
    };
  }
  const { value } = result;
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  // The one place a result's MCP content is made: the tool's parts, or its transcript as text.
  const content: ContentBlock[] = result.parts
    ? toMcpContent(result.parts)
    : [{ type: 'text', text: result.content }];
  return {
    content,
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
  };
}
