import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Effect } from '../policy/phase.js';
import type { AnyTool } from '../tools/define-tool.js';
import { type JsonSchema, jsonSchemaOf } from '../tools/schema.js';

/**
 * The MCP `tools/list` entry for a toolctx tool: its name, description and input JSON Schema, its
 * `title`, annotations from its `effect`, and its `outputSchema` when its result has an object
 * JSON Schema (`outputJsonSchema`, or derived from `outputSchema`; MCP takes only objects there). Every MCP door (serveMcp, and through it the Worker's
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
    ...(tool.icons !== undefined ? { icons: tool.icons } : {}),
    description: tool.description,
    inputSchema: tool.inputJsonSchema as McpTool['inputSchema'],
    ...outputSchemaOf(tool),
    annotations: annotationsOf(tool.effect, tool.idempotent),
  };
}

// Derived once per tool: a tools/list answer is made for every session.
const derived = new WeakMap<AnyTool, JsonSchema | undefined>();

function outputSchemaOf(tool: AnyTool): { outputSchema?: McpTool['outputSchema'] } {
  let schema = tool.outputJsonSchema;
  if (!schema && tool.outputSchema) {
    if (!derived.has(tool)) derived.set(tool, outputJsonSchemaOf(tool.outputSchema));
    schema = derived.get(tool);
  }
  return schema?.type === 'object' ? { outputSchema: schema as McpTool['outputSchema'] } : {};
}

/** A result schema that JSON Schema cannot express (a zod transform) is not published. */
function outputJsonSchemaOf(schema: NonNullable<AnyTool['outputSchema']>): JsonSchema | undefined {
  try {
    return jsonSchemaOf(schema, 'output');
  } catch {
    return undefined;
  }
}

function annotationsOf(effect: Effect, idempotent: boolean | undefined): ToolAnnotations {
  if (effect === 'read') return { readOnlyHint: true, openWorldHint: false };
  const hints: ToolAnnotations = {
    readOnlyHint: false,
    destructiveHint: true,
    openWorldHint: effect === 'send',
  };
  if (idempotent) hints.idempotentHint = true;
  return hints;
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
