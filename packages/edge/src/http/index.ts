export type { ToolServerCors } from './cors.js';
export { createToolServer, type ToolServerOptions } from './create-tool-server.js';
