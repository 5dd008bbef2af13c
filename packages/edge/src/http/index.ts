export { type Authenticate, createToolServer, type ToolServerOptions } from './create-tool-server.js';
export type { ApprovalBody, CallBody, StartRunBody } from './parse-request.js';
