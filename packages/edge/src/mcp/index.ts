export { McpSession } from './mcp-session.js';
export { type McpRouteOptions, mcpFetch, mountMcp } from './mount-mcp.js';
