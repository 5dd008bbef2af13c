import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Phase } from '../policy/phase.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Handler = (request: unknown, extra: Extra) => unknown;

/** The tools a host added with the SDK's own `registerTool`, served after the runtime's. */
export interface SdkTools {
  /** Those tools, as the SDK lists them; in `plan`, only the ones marked `readOnlyHint`. */
  list(extra: Extra): Promise<Tool[]>;
  /** The SDK's answer to a call of one of those tools, or `undefined` when `name` is none of them. */
  call(name: string, request: unknown, extra: Extra): Promise<CallToolResult | undefined>;
}

const shared = new Set(['tools/list', 'tools/call']);

/**
 * Lets tools registered with the SDK's `registerTool` (or `tool`) on the server `serveMcp` made
 * live beside the runtime's. `serveMcp` answers `tools/list` and `tools/call` itself; the SDK
 * installs its own handlers for them when the first tool is registered, and here they are kept
 * instead of replacing serveMcp's, to be asked for what is not a runtime tool. A registration
 * under the name of a runtime tool is refused at once.
 */
export function shareToolMethods(
  server: McpServer,
  runtimeTools: ReadonlyMap<string, unknown>,
  phase: Phase,
): SdkTools {
  const low = server.server;
  const sdk: { list?: Handler; call?: Handler } = {};
  const assertCan = low.assertCanSetRequestHandler.bind(low);
  const setHandler = low.setRequestHandler.bind(low) as (schema: unknown, handler: Handler) => void;
  low.assertCanSetRequestHandler = (method) => {
    if (!shared.has(method)) assertCan(method);
  };
  (low as { setRequestHandler: (schema: unknown, handler: Handler) => void }).setRequestHandler = (
    schema,
    handler,
  ) => {
    const method = (schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
    if (method === 'tools/list') sdk.list = handler;
    else if (method === 'tools/call') sdk.call = handler;
    else setHandler(schema, handler);
  };
  for (const method of ['registerTool', 'tool'] as const) {
    const register = (server[method] as (name: string, ...rest: unknown[]) => unknown).bind(server);
    (server as unknown as Record<string, unknown>)[method] = (name: string, ...rest: unknown[]) => {
      if (runtimeTools.has(name)) {
        throw new Error(
          `${method}: "${name}" is a tool of the runtime serveMcp serves; give the SDK tool another name.`,
        );
      }
      return register(name, ...rest);
    };
  }
  const list = async (extra: Extra): Promise<Tool[]> => {
    if (!sdk.list) return [];
    const { tools } = (await sdk.list({ method: 'tools/list', params: {} }, extra)) as { tools: Tool[] };
    return tools.filter(
      (tool) => !runtimeTools.has(tool.name) && (phase !== 'plan' || tool.annotations?.readOnlyHint === true),
    );
  };
  return {
    list,
    async call(name, request, extra) {
      if (!sdk.call || runtimeTools.has(name)) return undefined;
      if (!(await list(extra)).some((tool) => tool.name === name)) return undefined;
      return (await sdk.call(request, extra)) as CallToolResult;
    },
  };
}
