import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Effect } from '../policy/phase.js';
import type { AnyTool } from '../tools/define-tool.js';

/**
 * The MCP `tools/list` entry for a toolctx tool: its name, description and input JSON Schema, its
 * `title`, and annotations from its `effect`. Every MCP door (serveMcp, and through it the Worker's
 * McpSession) lists tools through this one function.
 *
 * Only `send` tools may reach outside (`ctx.fetch`), so `read` and `write` tools are closed-world
 * (`openWorldHint: false`). A `write` does not say whether it only adds or also overwrites, so it
 * is published as `destructiveHint: true`, which is what MCP assumes when the hint is absent: a
 * client that confirms destructive tools confirms it. `send` is destructive for the same reason
 * (what left cannot be called back).
 */
export function toMcpTool(tool: AnyTool): McpTool {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputJsonSchema as McpTool['inputSchema'],
    annotations: annotationsOf(tool.effect),
  };
}

function annotationsOf(effect: Effect): ToolAnnotations {
  if (effect === 'read') return { readOnlyHint: true, openWorldHint: false };
  return { readOnlyHint: false, destructiveHint: true, openWorldHint: effect === 'send' };
}

/**
 * The effect of a remote MCP tool from its annotations, which are the server's hints:
 * `readOnlyHint: true` → `read`; `openWorldHint: false` → `write`; otherwise `send`, since MCP
 * reads an absent `openWorldHint` as true (fail closed). The inverse of {@link toMcpTool}.
 */
export function effectOfMcpTool(tool: McpTool): Effect {
  if (tool.annotations?.readOnlyHint === true) return 'read';
  if (tool.annotations?.openWorldHint === false) return 'write';
  return 'send';
}
