import { jsonSchema, type ToolSet, tool } from 'ai';
import { type ContentPart, isToolParts } from '../content/content-part.js';
import { ToolctxError } from '../errors.js';
import type { CallableRun, Run } from '../runtime/run-api.js';
import type { ToolSchema } from '../tools/define-tool.js';
import { toModelContent } from './to-model-output.js';
import { aiSdkOutput } from './tool-output.js';

/** Options of {@link toAiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Offer only these of the run's tools, by name. Default: every tool the run offers. */
  names?: readonly string[];
  /**
   * The tools to offer, for a run that cannot list them itself (a Worker run from
   * `connectWorker`): `toolSchema(tool)` of each. Default: `run.listTools()`.
   */
  tools?: readonly ToolSchema[];
}

/**
 * The run's tools as an AI SDK tool set, each call made through `run`: the tools its phase allows
 * (in `plan`, only `read` tools), as `run.listTools()` gives them. The AI SDK's `abortSignal`
 * cancels the toolctx call (the tool's `ctx.signal` fires), the model's `toolCallId` names the
 * call in the run's events, a failure is thrown as a {@link ToolctxError} (the AI SDK turns it into
 * a tool error the model reads) and the model reads the result's transcript copy (`content`).
 * A result with content parts (`withParts`) is output as `withParts(parts, value)` and shown to
 * the model as AI SDK content (text, `image-data`, `file-data`), also when the messages are
 * rebuilt from history.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { toAiSdkTools } from '@toolctx/core/ai-sdk';
 * import { generateText, type LanguageModel, stepCountIs } from 'ai';
 * declare const countWords: AnyTool;
 * declare const model: LanguageModel;
 *
 * const run = createRuntime({ tools: [countWords] }).startRun();
 * const { text } = await generateText({
 *   model,
 *   tools: toAiSdkTools(run),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'How many words are in "to be or not to be"?',
 * });
 * await run.end();
 * ```
 */
export function toAiSdkTools(run: Pick<Run, 'call' | 'listTools'>, options?: AiSdkToolsOptions): ToolSet;
/**
 * The same for a run of any door, such as a Worker run from `connectWorker`, which calls tools but
 * cannot list them synchronously: `tools` says which to offer (the run still enforces its phase).
 *
 * @example
 * ```ts
 * import { type AnyTool, type CallableRun, toolSchema } from '@toolctx/core';
 * import { toAiSdkTools } from '@toolctx/core/ai-sdk';
 * declare const run: CallableRun; // e.g. connectWorker(worker).startRun()
 * declare const tools: AnyTool[]; // the definitions the Worker serves
 * const set = toAiSdkTools(run, { tools: tools.map(toolSchema) });
 * ```
 */
export function toAiSdkTools(
  run: CallableRun,
  options: AiSdkToolsOptions & { tools: readonly ToolSchema[] },
): ToolSet;
export function toAiSdkTools(
  run: Pick<CallableRun, 'call'> & { listTools?: () => ToolSchema[] },
  options: AiSdkToolsOptions = {},
): ToolSet {
  // The transcript copy of each finished call, until the AI SDK asks what the model should read.
  const transcripts = new Map<string, { content: string; parts?: ContentPart[] }>();
  const set: ToolSet = {};
  for (const schema of offered(run, options)) {
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
        const { content, parts } = result;
        transcripts.set(toolCallId, parts ? { content, parts } : { content });
        return aiSdkOutput(result);
      },
      toModelOutput({ toolCallId, output }) {
        const transcript = transcripts.get(toolCallId);
        transcripts.delete(toolCallId);
        // Absent when the messages are rebuilt later from history: what the output says.
        const parts = transcript ? transcript.parts : isToolParts(output) ? output.parts : undefined;
        if (parts) return toModelContent(parts);
        const value =
          transcript?.content ?? (typeof output === 'string' ? output : (JSON.stringify(output) ?? ''));
        return { type: 'text', value };
      },
    });
  }
  return set;
}

/** The run's tools, narrowed to `names`; a name the run does not offer is a mistake, not a skip. */
function offered(run: { listTools?: () => ToolSchema[] }, options: AiSdkToolsOptions): ToolSchema[] {
  const { names } = options;
  const listed = options.tools ? [...options.tools] : run.listTools?.();
  if (!listed) {
    throw new TypeError(
      'toAiSdkTools: this run cannot list its tools (a Worker run); pass { tools: definitions.map(toolSchema) }.',
    );
  }
  if (names === undefined) return listed;
  const byName = new Map(listed.map((schema) => [schema.name, schema]));
  const missing = names.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    throw new TypeError(
      `toAiSdkTools: the run does not offer ${missing.map((name) => `"${name}"`).join(', ')}. ` +
        `It offers: ${listed.map((schema) => schema.name).join(', ') || 'no tools'} (in plan, only read tools).`,
    );
  }
  return names.map((name) => byName.get(name)!);
}
