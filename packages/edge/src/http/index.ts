export type { ToolServerCors } from './cors.js';
export {
  type AuthAnswer,
  type Authenticate,
  createToolServer,
  type ToolServerOptions,
} from './create-tool-server.js';
