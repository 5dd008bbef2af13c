export {
  type AnthropicTool,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
  type OpenAiToolsOptions,
  toAnthropicTools,
  toOpenAiResponsesTools,
  toOpenAiTools,
} from './provider-tools.js';
export type { ToolListOptions, ToolSource } from './tool-source.js';
