/**
 * `@toolctx/core/mcp`: toolctx and the Model Context Protocol, both ways, on the official SDK v2
 * (`@modelcontextprotocol/server` and `/client`, peer dependencies). {@link serveMcp} serves a runtime's tools to
 * MCP clients over any transport (2025-11-25); {@link serveMcpHttp} serves them over streamable HTTP
 * to clients of 2025-11-25 and 2026-07-28; {@link mcpTools} makes a remote server's tools local tools.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { serveMcp } from '@toolctx/core/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
 * declare const tools: AnyTool[];
 *
 * await serveMcp(createRuntime({ tools })).connect(new StdioServerTransport());
 * ```
 * @module
 */
export { type DeferredAsks, deferAsks } from '../ask/defer-asks.js';
export { type ArtifactResourceOptions, artifactUri } from './artifact-resources.js';
export { mcpDoor } from './door.js';
export {
  type McpToolsClient,
  type McpToolsOptions,
  type McpToolsRequestOptions,
  mcpTools,
} from './mcp-tools.js';
export { type MemoryTaskHostOptions, mcpTaskDoor, memoryTaskHost } from './memory-tasks.js';
export { type McpCaller, type McpTraceContext, type ServeMcpOptions, serveMcp } from './serve-mcp.js';
export {
  type McpHttpServer,
  type ServeMcpHttpOptions,
  type ServeMcpStatelessOptions,
  serveMcpHttp,
  serveMcpStateless,
} from './serve-mcp-http.js';
export {
  type McpTaskHost,
  type McpTaskStart,
  type McpTaskState,
  taskAnswers,
  taskStateOf,
  tasksExtension,
} from './tasks.js';
