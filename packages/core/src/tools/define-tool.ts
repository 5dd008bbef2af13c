import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { NeedsApproval } from '../approval/requires-approval.js';
import type { ToolParts } from '../content/content-part.js';
import type { ToolExecutionContext } from '../context/types.js';
import type { CredentialRequest } from '../credentials/credential-provider.js';
import type { Effect } from '../policy/phase.js';
import type { ResultTaint, TaintReads } from '../policy/taint.js';
import { type JsonSchema, jsonSchemaOf } from './schema.js';

/** How a tool is retried when it fails with a retryable error. Aborted calls are never retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included (2 = one retry). */
  attempts: number;
  /** Wait before each retry, in milliseconds (doubled each time). */
  backoffMs?: number;
}

/** What `defineTool` takes. */
export interface ToolDefinition<Input extends StandardSchemaV1 = StandardSchemaV1, Output = unknown> {
  /** 1–64 of `A–Z a–z 0–9 _ -`, unique in a runtime (what OpenAI, Anthropic and MCP all accept). */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** A short name for people (an MCP client's tool list shows it); not sent to the model. */
  title?: string;
  /** Pictures an MCP client may show beside the tool (MCP's `icons`); not sent to the model. */
  icons?: ToolIcon[];
  /** Validator of the arguments: zod 4, or any Standard Schema validator. */
  inputSchema: Input;
  /** Validator of the result, checked before it is returned. */
  outputSchema?: StandardSchemaV1<unknown, Output>;
  /** The arguments' JSON Schema, for validators that cannot produce one themselves. */
  inputJsonSchema?: JsonSchema;
  /**
   * The result's JSON Schema (MCP's `outputSchema`), for validators that cannot produce one; by
   * default derived from `outputSchema`. Only an object schema is published over MCP.
   */
  outputJsonSchema?: JsonSchema;
  /** Default `read`; `send` moves data out and may use `ctx.fetch`. Never shown to the model. */
  effect?: Effect;
  /** A credential resolved for the run's tenant and principal before execute: `ctx.credential`. */
  needs?: CredentialRequest;
  /** Arguments that carry artifact refs, and the kind each accepts: resolved to data before execute. */
  wants?: Record<string, string>;
  /** Whether a call needs a person's approval: always, or as a predicate on the arguments. */
  needsApproval?: NeedsApproval<StandardSchemaV1.InferOutput<Input>>;
  /** Caches successful results for `ttlMs`, keyed by tool, canonical arguments and scope. */
  cache?: { ttlMs: number };
  /**
   * What the tool's output brings into the conversation: `private` data, `untrusted` input, or
   * both; or a function of the result. Raises the conversation's taint.
   */
  reads?: TaintReads | ((value: unknown) => ResultTaint);
  /** Time limit for one attempt, in milliseconds. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /**
   * Whether a call may safely run again from the start. A call of an idempotent tool that was
   * running when its run's host restarted is run again when the run wakes, up to `retry.attempts`
   * attempts in all (default 2), each one a `tool.retry` event; any other such call fails as
   * `interrupted`. Published over MCP as `idempotentHint`.
   */
  idempotent?: boolean;
  /**
   * How a call from an MCP client that declared the Tasks extension (MCP 2026-07-28) runs:
   * `optional` (the default) answers the result when the call settles within `taskWindowMs`, and a
   * task the client follows with `tasks/get` when it does not; `required` is a task at once (a client
   * without the extension gets `-32021`); `forbidden` is never a task. Other doors ignore it.
   */
  taskSupport?: 'optional' | 'required' | 'forbidden';
  /**
   * How long an `optional` call may run before it becomes an MCP task, in ms; an ask within it is
   * an `input_required` round instead. Default: the MCP door's `taskWindowMs` (1000).
   */
  taskWindowMs?: number;
  /**
   * Does the work: `args` are already validated; `ctx` carries the signal, progress, artifacts and
   * the rest. Returns the tool's value, or content parts with the value beside them (`withParts`).
   */
  execute(
    args: StandardSchemaV1.InferOutput<Input>,
    ctx: ToolExecutionContext,
  ): Output | ToolParts<Output> | Promise<Output | ToolParts<Output>>;
}

/**
 * A picture of a tool, as MCP's `icons` carry it: an `https:` address or a `data:image/…` URI,
 * with its media type, its sizes (`"48x48"`, `"any"`) and the theme it suits.
 *
 * @experimental Content parts may still change.
 */
export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** A defined tool: its definition plus the JSON Schema a model sees (`inputJsonSchema`). */
export interface Tool<Input extends StandardSchemaV1 = StandardSchemaV1, Output = unknown>
  extends ToolDefinition<Input, Output> {
  readonly effect: Effect;
  readonly inputJsonSchema: JsonSchema;
}

/** A tool of any input and output, as a runtime holds them. */
// biome-ignore lint/suspicious/noExplicitAny: a tool set mixes tools of every argument type.
export type AnyTool = Tool<any, any>;

const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines a tool. Checks the definition at once, so a mistake is found where it is written.
 *
 * @example
 * ```ts
 * import { defineTool } from '@toolctx/core';
 * import { z } from 'zod';
 *
 * export const countWords = defineTool({
 *   name: 'count_words',
 *   description: 'Counts the words in a text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: ({ text }, ctx) => {
 *     ctx.progress({ message: 'Counting…' });
 *     return text.split(/\s+/).filter(Boolean).length;
 *   },
 * });
 * ```
 */
export function defineTool<Input extends StandardSchemaV1, Output>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  const { name } = definition;
  if (typeof name !== 'string' || !namePattern.test(name)) {
    throw new TypeError(
      `Tool name ${JSON.stringify(name)} is not valid: use 1–64 letters, digits, "_" or "-" (what every tool list accepts).`,
    );
  }
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new TypeError(
      `Tool "${name}" needs a description: the model reads it to decide when to call the tool.`,
    );
  }
  if (
    definition.title !== undefined &&
    (typeof definition.title !== 'string' || definition.title.trim() === '')
  ) {
    throw new TypeError(`Tool "${name}": a title, when given, is a non-empty string (people read it).`);
  }
  const { icons } = definition;
  if (
    icons !== undefined &&
    !(Array.isArray(icons) && icons.every((i) => /^(https:|data:image\/)/.test(i?.src)))
  ) {
    throw new TypeError(
      `Tool "${name}": icons is a list of { src }, each src an https: address or a data:image/ URI.`,
    );
  }
  if (typeof definition.inputSchema?.['~standard']?.validate !== 'function') {
    throw new TypeError(
      `Tool "${name}" needs an inputSchema: a zod 4 schema or any Standard Schema validator.`,
    );
  }
  if (typeof definition.execute !== 'function') {
    throw new TypeError(`Tool "${name}" needs an execute(args, ctx) function.`);
  }
  const jsonSchema = definition.inputJsonSchema ?? jsonSchemaOf(definition.inputSchema);
  if (!jsonSchema) {
    throw new TypeError(
      `Tool "${name}": its inputSchema cannot produce a JSON Schema. Pass inputJsonSchema, or use zod 4.2 or later${zodBelow42(definition.inputSchema)}.`,
    );
  }
  if (jsonSchema.type !== 'object') {
    throw new TypeError(
      `Tool "${name}": the inputSchema must be an object schema (such as z.object({...})); tool lists take named arguments.`,
    );
  }
  return { ...definition, effect: definition.effect ?? 'read', inputJsonSchema: jsonSchema };
}

/** The tool as a model sees it: the shape MCP's `tools/list` uses. */
export interface ToolSchema {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * The JSON Schema view of a tool, accepted by MCP, OpenAI and Anthropic tool lists. What only the
 * runtime needs (effect, needs, wants) is left out.
 *
 * @example
 * ```ts
 * import { defineTool, toolSchema } from '@toolctx/core';
 * import { z } from 'zod';
 * const countWords = defineTool({
 *   name: 'count_words',
 *   description: 'Counts the words in a text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: ({ text }) => text.split(/\s+/).length,
 * });
 * toolSchema(countWords); // { name: 'count_words', description: '…', inputSchema: { type: 'object', … } }
 * ```
 */
export function toolSchema(tool: AnyTool): ToolSchema {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputJsonSchema };
}

/**
 * Why a zod schema cannot convert, naming the version: zod gained Standard JSON Schema in 4.2, so
 * 4.0, 4.1 (and zod 3's `zod/v4`) validate but cannot give a tool list its JSON Schema.
 */
function zodBelow42(schema: StandardSchemaV1): string {
  if (schema['~standard'].vendor !== 'zod') return '';
  const version = (schema as { _zod?: { version?: { major: number; minor: number; patch: number } } })._zod
    ?.version;
  return version
    ? ` (this schema is zod ${version.major}.${version.minor}.${version.patch}, which validates but has no JSON Schema converter)`
    : ' (this schema is zod 3, which has no JSON Schema converter)';
}
