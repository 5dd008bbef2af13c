import { jsonSchema, type ToolSet, tool } from 'ai';
import { schemasOf, type ToolListOptions, type ToolSource } from '../adapters/tool-source.js';
import { ToolctxError } from '../errors.js';
import type { Run } from '../runtime/run.js';

/** Options of {@link toAiSdkTools}. */
export interface AiSdkToolsOptions extends ToolListOptions {
  /** The tools to offer: the run's runtime (filtered by `phase`), or a list of its tools. */
  tools: ToolSource;
}

/**
 * The tools as an AI SDK tool set, each call made through `run`: the AI SDK's `abortSignal`
 * cancels the toolctx call (the tool's `ctx.signal` fires), the model's `toolCallId` names the
 * call in the run's events, a failure is thrown as a {@link ToolctxError} (the AI SDK turns it into
 * a tool error the model reads) and the model reads the result's transcript copy (`content`).
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { toAiSdkTools } from '@toolctx/core/ai-sdk';
 * import { generateText, type LanguageModel, stepCountIs } from 'ai';
 * declare const countWords: AnyTool;
 * declare const model: LanguageModel;
 *
 * const runtime = createRuntime({ tools: [countWords] });
 * const run = runtime.startRun();
 * const { text } = await generateText({
 *   model,
 *   tools: toAiSdkTools(run, { tools: runtime }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'How many words are in "to be or not to be"?',
 * });
 * await run.end();
 * ```
 */
export function toAiSdkTools(run: Run, options: AiSdkToolsOptions): ToolSet {
  // The transcript copy of each finished call, until the AI SDK asks what the model should read.
  const transcripts = new Map<string, string>();
  const set: ToolSet = {};
  for (const schema of schemasOf(options.tools, options)) {
    set[schema.name] = tool<unknown, unknown>({
      description: schema.description,
      inputSchema: jsonSchema<unknown>(schema.inputSchema),
      async execute(args, { abortSignal, toolCallId }) {
        const result = await run.call({
          tool: schema.name,
          args,
          toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
        });
        if (!result.ok) {
          const { kind, message, retryable, details } = result.error;
          throw new ToolctxError(kind, message, { retryable, ...(details ? { details } : {}) });
        }
        transcripts.set(toolCallId, result.content);
        return result.value;
      },
      toModelOutput({ toolCallId, output }) {
        const content = transcripts.get(toolCallId);
        transcripts.delete(toolCallId);
        // Absent when the messages are rebuilt later from history: the same text the run would give.
        const value = content ?? (typeof output === 'string' ? output : (JSON.stringify(output) ?? ''));
        return { type: 'text', value };
      },
    });
  }
  return set;
}
