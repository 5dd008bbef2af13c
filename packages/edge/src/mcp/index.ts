export { type McpRouteOptions, mcpFetch, mountMcp } from './mount-mcp.js';
