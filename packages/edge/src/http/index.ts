export { type Authenticate, createToolServer, type ToolServerOptions } from './create-tool-server.js';
