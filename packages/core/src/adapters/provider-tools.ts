import type { JsonSchema } from '../tools/schema.js';
import { schemasOf, type ToolListOptions, type ToolSource } from './tool-source.js';

/**
 * A function tool of OpenAI's Chat Completions API, as documented at
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 * (`{ type: 'function', function: { name, description, parameters, strict } }`).
 */
export interface OpenAiChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}

/**
 * A function tool of OpenAI's Responses API, as documented at
 * https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 * (flat: `{ type: 'function', name, description, parameters, strict }`).
 */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/**
 * A client tool of Anthropic's Messages API, as documented at
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools
 * (`{ name, description, input_schema }`, the schema of type `object`).
 */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** Options of {@link toOpenAiTools} and {@link toOpenAiResponsesTools}. */
export interface OpenAiToolsOptions extends ToolListOptions {
  /**
   * Ask OpenAI for strict schema adherence. Strict mode needs every property required and
   * `additionalProperties: false`, which optional arguments do not meet; so it is off by default.
   */
  strict?: boolean;
}

/**
 * The tools in OpenAI Chat Completions' `tools` shape. Pure data; send it as `tools`.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime, toOpenAiTools } from '@toolctx/core';
 * declare const tools: AnyTool[];
 * declare const openai: { chat: { completions: { create(body: object): Promise<unknown> } } };
 * const runtime = createRuntime({ tools });
 * await openai.chat.completions.create({
 *   model: 'gpt-4.1',
 *   messages: [{ role: 'user', content: 'How many words are in "to be or not to be"?' }],
 *   tools: toOpenAiTools(runtime),
 * });
 * ```
 */
export function toOpenAiTools(source: ToolSource, options: OpenAiToolsOptions = {}): OpenAiChatTool[] {
  return schemasOf(source, options).map(({ name, description, inputSchema }) => ({
    type: 'function',
    function: {
      name,
      description,
      parameters: inputSchema,
      ...(options.strict !== undefined ? { strict: options.strict } : {}),
    },
  }));
}

/**
 * The tools in OpenAI Responses' `tools` shape. Pure data; send it as `tools`.
 *
 * @example
 * ```ts
 * import { type Runtime, toOpenAiResponsesTools } from '@toolctx/core';
 * declare const runtime: Runtime;
 * declare const openai: { responses: { create(body: object): Promise<unknown> } };
 * await openai.responses.create({ model: 'gpt-4.1', input: 'Count the words in "a b c".', tools: toOpenAiResponsesTools(runtime) });
 * ```
 */
export function toOpenAiResponsesTools(
  source: ToolSource,
  options: OpenAiToolsOptions = {},
): OpenAiResponsesTool[] {
  return schemasOf(source, options).map(({ name, description, inputSchema }) => ({
    type: 'function',
    name,
    description,
    parameters: inputSchema,
    strict: options.strict ?? false,
  }));
}

/**
 * The tools in Anthropic Messages' `tools` shape. Pure data; send it as `tools`.
 *
 * @example
 * ```ts
 * import { type Runtime, toAnthropicTools } from '@toolctx/core';
 * declare const runtime: Runtime;
 * declare const anthropic: { messages: { create(body: object): Promise<unknown> } };
 * await anthropic.messages.create({
 *   model: 'claude-sonnet-4-5',
 *   max_tokens: 1024,
 *   messages: [{ role: 'user', content: 'Count the words in "a b c".' }],
 *   tools: toAnthropicTools(runtime),
 * });
 * ```
 */
export function toAnthropicTools(source: ToolSource, options: ToolListOptions = {}): AnthropicTool[] {
  return schemasOf(source, options).map(({ name, description, inputSchema }) => ({
    name,
    description,
    input_schema: inputSchema,
  }));
}
