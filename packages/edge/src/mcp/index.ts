export type { DnsRebindingOptions } from './dns-rebinding.js';
export { type McpRouteOptions, mcpFetch, mountMcp } from './mount-mcp.js';
export { type RunTaskHostOptions, runTaskHost } from './run-tasks.js';
export type { McpSessionLimit } from './session-slots.js';
