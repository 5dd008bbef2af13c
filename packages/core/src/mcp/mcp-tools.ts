import type {
  CallToolResult,
  ListToolsResult,
  Tool as McpTool,
  Progress,
} from '@modelcontextprotocol/server';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolctxError } from '../errors.js';
import type { Effect } from '../policy/phase.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import type { JsonSchema } from '../tools/schema.js';
import { fromMcpResult, lenientCallToolResultSchema } from './content.js';
import { effectOfMcpTool } from './tool-metadata.js';
import { fromMcpProgress, remoteErrorInfo } from './wire.js';

/**
 * What {@link mcpTools} needs of a connected MCP client: the SDK v2's `Client`
 * (`@modelcontextprotocol/client`) has it. Named here, not imported, so the types of
 * `@toolctx/core/mcp` need only `@modelcontextprotocol/server`, which a Worker serving MCP has.
 */
export interface McpToolsClient {
  /** One page of the server's tools, from `cursor` on. */
  listTools(params?: { cursor?: string }): Promise<ListToolsResult>;
  /** Sends one `tools/call` and answers its result as `resultSchema` parses it. */
  request<T extends StandardSchemaV1>(
    request: { method: 'tools/call'; params: { name: string; arguments?: Record<string, unknown> } },
    resultSchema: T,
    options?: McpToolsRequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>>;
}

/** What {@link mcpTools} passes with each call: a subset of the SDK client's request options. */
export interface McpToolsRequestOptions {
  /** The tool's own signal: aborting it cancels the remote call. */
  signal?: AbortSignal;
  /** Each `notifications/progress` of the call. */
  onprogress?: (progress: Progress) => void;
  /** Time without progress after which the call fails, in ms. */
  timeout?: number;
  /** Progress restarts the timeout. */
  resetTimeoutOnProgress?: boolean;
}

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /** Put before each local name (`github_` → `github_create_issue`), to keep servers apart. */
  prefix?: string;
  /** Keep only the remote tools this returns true for. */
  filter?: (tool: McpTool) => boolean;
  /**
   * The effect of each tool. Default: from the server's annotations, which are hints from the
   * server: `readOnlyHint` → `read`; `openWorldHint: false` → `write`; otherwise `send` (fail closed).
   */
  effect?: (tool: McpTool) => Effect;
  /** Time without progress after which a call fails, in ms. Default: the SDK's (60 s). */
  requestTimeoutMs?: number;
}

/**
 * Turns the tools of a connected MCP server into toolctx tools. Each keeps the remote name (made
 * safe for every tool list), description, `title` and JSON Schema (the remote server validates
 * fully; locally the arguments must be an object with the required keys), and takes its `effect`
 * from the annotations (see {@link McpToolsOptions.effect}), so a toolctx server's tools come back
 * as they were defined. Its content comes back as content parts (an image as an `image` part,
 * never as base64 in the transcript; a content type MCP does not define as a text note) and its
 * `structuredContent` as the value, so a toolctx server's `withParts` results come back whole; the
 * remote `outputSchema` is kept (`outputJsonSchema`). Remote `notifications/progress` reach the
 * local `ctx.progress`, so the local status line moves; a local abort (`ctx.signal`) sends `notifications/cancelled`; an `isError` result becomes
 * a failure, with the remote `ErrorInfo` when the server is toolctx.
 *
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { mcpTools } from '@toolctx/core/mcp';
 * import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
 *
 * const client = new Client({ name: 'my-agent', version: '1.0.0' });
 * await client.connect(new StreamableHTTPClientTransport(new URL('https://tools.example.com/mcp')));
 * const runtime = createRuntime({ tools: await mcpTools(client, { prefix: 'remote_' }) });
 * ```
 */
export async function mcpTools(client: McpToolsClient, options: McpToolsOptions = {}): Promise<AnyTool[]> {
  const listed: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return listed.filter((tool) => options.filter?.(tool) ?? true).map((tool) => wrap(client, tool, options));
}

function wrap(client: McpToolsClient, remote: McpTool, options: McpToolsOptions): AnyTool {
  const schema = remote.inputSchema as JsonSchema;
  const title = remote.title?.trim() || remote.annotations?.title?.trim() || undefined;
  return defineTool({
    name: localName(options.prefix ?? '', remote.name),
    description: remote.description?.trim() || title || `The MCP tool ${remote.name}.`,
    ...(title ? { title } : {}),
    inputSchema: objectWithKeys((schema.required as string[] | undefined) ?? []),
    inputJsonSchema: { ...schema, type: 'object' },
    ...(remote.outputSchema ? { outputJsonSchema: remote.outputSchema as JsonSchema } : {}),
    effect: options.effect?.(remote) ?? effectOfMcpTool(remote),
    async execute(args, ctx) {
      let result: CallToolResult;
      try {
        // `request` rather than `callTool`, whose result schema fails a whole call on one content
        // block of a type it does not know.
        result = await client.request(
          { method: 'tools/call', params: { name: remote.name, arguments: args } },
          lenientCallToolResultSchema,
          {
            signal: ctx.signal,
            onprogress: (progress) => ctx.progress(fromMcpProgress(progress)),
            resetTimeoutOnProgress: true,
            ...(options.requestTimeoutMs !== undefined ? { timeout: options.requestTimeoutMs } : {}),
          },
        );
      } catch (thrown) {
        // The client's SdkError with SdkErrorCode.RequestTimeout, read by its code so that this
        // module loads without @modelcontextprotocol/client (src/mcp/sdk-contract.test.ts pins it).
        if ((thrown as { code?: unknown } | null)?.code === requestTimeout) {
          throw new ToolctxError('timeout', `The MCP tool "${remote.name}" did not answer in time.`, {
            retryable: true,
            cause: thrown,
          });
        }
        throw thrown;
      }
      if (result.isError) throw remoteFailure(remote.name, result);
      return fromMcpResult(result.content, result.structuredContent);
    },
  });
}

const requestTimeout = 'REQUEST_TIMEOUT';

function remoteFailure(name: string, result: CallToolResult): ToolctxError {
  const info = remoteErrorInfo(result);
  if (info) {
    return new ToolctxError(info.kind, info.message, {
      retryable: info.retryable,
      details: { ...info.details, remoteTool: name },
    });
  }
  // An isError result is meant for the model to read (MCP puts tool failures there on purpose).
  const text = textOf(result) ?? '';
  return new ToolctxError(
    'tool-error',
    `The MCP tool "${name}" failed${text ? `: ${text.slice(0, 1000)}` : '.'}`,
    {
      details: { remoteTool: name },
    },
  );
}

function textOf(result: CallToolResult): string | undefined {
  if (!result.content.every((part) => part.type === 'text')) return undefined;
  return result.content.map((part) => (part as { text: string }).text).join('\n');
}

/** A name every tool list accepts: MCP allows dots and slashes, OpenAI and Anthropic do not. */
function localName(prefix: string, remote: string): string {
  return `${prefix}${remote}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
}

/** A permissive validator: an object (or nothing, read as `{}`) with the required keys present. */
function objectWithKeys(required: readonly string[]): StandardSchemaV1<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolctx-mcp',
      validate(value) {
        const args = value ?? {};
        if (typeof args !== 'object' || Array.isArray(args)) {
          return { issues: [{ message: 'Expected an object of named arguments.' }] };
        }
        const missing = required.filter((key) => !(key in args));
        if (missing.length > 0) {
          return { issues: missing.map((key) => ({ message: 'Required.', path: [key] })) };
        }
        return { value: args as Record<string, unknown> };
      },
    },
  };
}
