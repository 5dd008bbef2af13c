import { jsonSchema, type ToolExecutionOptions, type ToolSet, tool } from 'ai';
import type { ApprovalDecision } from '../approval/approval-decision.js';
import { requiresApproval } from '../approval/requires-approval.js';
import { type ContentPart, isToolParts } from '../content/content-part.js';
import type { ToolResult } from '../context/types.js';
import { ToolctxError } from '../errors.js';
import type { RunEvents } from '../events/event-log.js';
import { callNeedsApproval } from '../runtime/needs-approval.js';
import { RunFrame } from '../runtime/run.js';
import type { CallableRun, ResumeOptions, Run } from '../runtime/run-api.js';
import { type AnyTool, type ToolSchema, toolSchema } from '../tools/define-tool.js';
import { sdkApprovalAnswers } from './sdk-approvals.js';
import { toModelContent } from './to-model-output.js';
import { aiSdkOutput } from './tool-output.js';

/** Options of {@link toAiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Offer only these of the run's tools, by name. Default: every tool the run offers. */
  names?: readonly string[];
  /**
   * The tools to offer, for a run that cannot list them itself (a Worker run from
   * `connectWorker`): their definitions, which also say which calls ask for approval (the AI SDK's
   * approval then asks), or `toolSchema(tool)` of each. Default: `run.listTools()`.
   */
  tools?: readonly (ToolSchema | AnyTool)[];
  /**
   * Whether `execute` streams the call's `ctx.progress` reports as preliminary results (an
   * `AsyncIterable`: each report an {@link AiSdkProgress}, then the output). Default `true`;
   * `false` makes `execute` return a promise of the output, for code that calls it directly.
   */
  preliminary?: boolean;
}

/**
 * A preliminary result of a toolctx call in the AI SDK: one `ctx.progress` report (`progress`, the
 * payload as the tool gave it; `n`, its count in the call). `streamText` gives it as a
 * `tool-result` part with `preliminary: true`, `useChat` as the tool part's output until the
 * final one arrives; the model never reads it.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export interface AiSdkProgress {
  type: 'progress';
  progress: unknown;
  n: number;
}

/**
 * What a tool called through {@link toAiSdkTools} reads as `ctx.meta.aiSdk`: the AI SDK's execute
 * options that are data. `context` is the tool's context (`toolsContext[name]` in ai 7,
 * `experimental_context` in ai 6), absent when there is none.
 *
 * @experimental May still change with the AI SDK's chat UI.
 * @example
 * ```ts
 * import type { ToolExecutionContext } from '@toolctx/core';
 * import type { AiSdkCallMeta } from '@toolctx/core/ai-sdk';
 * declare const ctx: ToolExecutionContext;
 * const aiSdk = ctx.meta?.aiSdk as AiSdkCallMeta | undefined;
 * console.log(aiSdk?.messages.length, aiSdk?.context);
 * ```
 */
export interface AiSdkCallMeta {
  toolCallId: string;
  /** The messages sent to the model for the step that made this call. */
  messages: readonly unknown[];
  context?: unknown;
}

/** What toAiSdkTools uses of a run; each extra verb turns on what needs it. */
type AiSdkRun = Pick<CallableRun, 'call'> & {
  listTools?: () => ToolSchema[];
  readonly events?: Pick<RunEvents, 'subscribe'>;
  resume?: (approvalId: string, decision: ApprovalDecision, options?: ResumeOptions) => Promise<ToolResult>;
  callStatus?: (toolCallId: string) => { approvalId?: string } | undefined;
};

type SdkOptions = Pick<ToolExecutionOptions, 'toolCallId' | 'messages'> & {
  abortSignal?: AbortSignal;
  context?: unknown;
  experimental_context?: unknown;
};

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
 * A call that would wait for a person's approval pauses the AI SDK as its own tool approval does:
 * `needsApproval` files the call with the run (bound to its arguments' hash) and the SDK emits a
 * `tool-approval-request`; answered with a `tool-approval-response` (`addToolApprovalResponse` in
 * `useChat`), the next `generateText`/`streamText` runs it through `run.resume`, whose one-use
 * token checks the arguments are the ones approved; a denial settles the call as denied and the
 * tool never runs. A call the approval port decides at once does not pause. `ctx.progress` reaches
 * the SDK as preliminary results ({@link AiSdkProgress}), and its execute options as `ctx.meta.aiSdk`
 * ({@link AiSdkCallMeta}).
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
 * Given the definitions and a run that can `resume`, calls that need approval pause the AI SDK too.
 *
 * @example
 * ```ts
 * import type { AnyTool, CallableRun } from '@toolctx/core';
 * import { toAiSdkTools } from '@toolctx/core/ai-sdk';
 * declare const run: CallableRun; // e.g. connectWorker(worker).startRun()
 * declare const tools: AnyTool[]; // the definitions the Worker serves
 * const set = toAiSdkTools(run, { tools });
 * ```
 */
export function toAiSdkTools(
  run: CallableRun,
  options: AiSdkToolsOptions & { tools: readonly (ToolSchema | AnyTool)[] },
): ToolSet;
export function toAiSdkTools(run: AiSdkRun, options: AiSdkToolsOptions = {}): ToolSet {
  // The transcript copy of each finished call, until the AI SDK asks what the model should read.
  const transcripts = new Map<string, { content: string; parts?: ContentPart[] }>();
  // Calls filed as waiting for approval when the SDK asked, and calls its port decided at once.
  const waiting = new Map<string, string>();
  const decidedEarly = new Map<string, ToolResult>();
  const approvalOf = (toolCallId: string) =>
    waiting.get(toolCallId) ?? run.callStatus?.(toolCallId)?.approvalId;
  const { resume, events } = run;
  const streams = options.preliminary !== false && events !== undefined;

  /** The SDK gives a denied call no execute: its answer in the messages settles the waiting call. */
  const settleDenied = (messages: readonly unknown[] | undefined) => {
    if (!resume) return;
    for (const [toolCallId, answer] of sdkApprovalAnswers(messages)) {
      const approvalId = answer.approved ? undefined : approvalOf(toolCallId);
      if (approvalId === undefined) continue;
      waiting.delete(toolCallId);
      const reason = answer.reason ?? 'Denied in the AI SDK’s approval.';
      void resume.call(run, approvalId, { approved: false, reason }).catch(() => undefined);
    }
  };

  /** The result the SDK's execute gets: the approved call resumed, a call decided early, or a new call. */
  const callFor = (name: string, input: unknown, sdk: SdkOptions): Promise<ToolResult> => {
    const { toolCallId, abortSignal } = sdk;
    const meta = metaOf(sdk);
    const early = decidedEarly.get(toolCallId);
    if (early) {
      decidedEarly.delete(toolCallId);
      return Promise.resolve(early);
    }
    const approvalId = resume ? approvalOf(toolCallId) : undefined;
    if (approvalId !== undefined && resume) {
      waiting.delete(toolCallId);
      const reason = sdkApprovalAnswers(sdk.messages).get(toolCallId)?.reason;
      const decision = reason ? { approved: true, reason } : { approved: true };
      // The SDK's own copy of the arguments: the run's token refuses them unless they were approved.
      const resumeOptions: ResumeOptions = {
        args: input,
        meta,
        ...(abortSignal ? { signal: abortSignal } : {}),
      };
      return resume.call(run, approvalId, decision, resumeOptions);
    }
    return run.call({
      tool: name,
      args: input,
      toolCallId,
      meta,
      ...(abortSignal ? { signal: abortSignal } : {}),
    });
  };

  /** The output of a settled call, or its failure thrown for the SDK to give the model. */
  const outputOf = (toolCallId: string, result: ToolResult): unknown => {
    if (!result.ok) {
      const { kind, message, retryable, details } = result.error;
      throw new ToolctxError(kind, message, { retryable, ...(details ? { details } : {}) });
    }
    const { content, parts } = result;
    transcripts.set(toolCallId, parts ? { content, parts } : { content });
    return aiSdkOutput(result);
  };

  const set: ToolSet = {};
  for (const { schema, asks } of offered(run, options)) {
    const name = schema.name;
    // A local run answers from the tool's own rule and the run's taint; another door's run from
    // the definitions it was given.
    const approvalRule =
      resume && run instanceof RunFrame
        ? (args: unknown) => callNeedsApproval(run, { tool: name, args })
        : resume && asks
          ? asks
          : undefined;
    set[name] = tool<unknown, unknown>({
      description: schema.description,
      inputSchema: jsonSchema<unknown>(schema.inputSchema),
      ...(approvalRule
        ? {
            async needsApproval(input: unknown, sdk: SdkOptions) {
              settleDenied(sdk.messages);
              // Asked again when the answer comes back: the call already waits.
              if (approvalOf(sdk.toolCallId) !== undefined) return true;
              if (!(await approvalRule(input))) return false;
              const request = { tool: name, args: input, toolCallId: sdk.toolCallId, meta: metaOf(sdk) };
              const result = await run.call(request);
              const approvalId = result.ok ? undefined : result.error.details?.approvalId;
              if (!result.ok && result.error.kind === 'approval-pending' && typeof approvalId === 'string') {
                waiting.set(sdk.toolCallId, approvalId);
                return true;
              }
              decidedEarly.set(sdk.toolCallId, result);
              return false;
            },
          }
        : {}),
      execute(input, sdk) {
        settleDenied(sdk.messages);
        const { toolCallId } = sdk;
        if (!streams) return callFor(name, input, sdk).then((result) => outputOf(toolCallId, result));
        return withProgress(events!, toolCallId, () => callFor(name, input, sdk), outputOf);
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

/** The call's progress reports as they come, then its output: what the SDK shows as preliminary. */
async function* withProgress(
  events: Pick<RunEvents, 'subscribe'>,
  toolCallId: string,
  start: () => Promise<ToolResult>,
  outputOf: (toolCallId: string, result: ToolResult) => unknown,
): AsyncGenerator<unknown> {
  const reports: AiSdkProgress[] = [];
  let wake: (() => void) | undefined;
  let settled: { result: ToolResult } | { thrown: unknown } | undefined;
  // Subscribed before the call starts, so its first report is not missed.
  const stop = events.subscribe((event) => {
    if (event.type !== 'tool.progress' || event.callId !== toolCallId) return;
    const { payload, n } = event.data as { payload: unknown; n: number };
    reports.push({ type: 'progress', progress: payload, n });
    wake?.();
  });
  try {
    start().then(
      (result) => {
        settled = { result };
        wake?.();
      },
      (thrown: unknown) => {
        settled = { thrown };
        wake?.();
      },
    );
    for (;;) {
      while (reports.length > 0) yield reports.shift();
      if (settled) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    stop();
  }
  if ('thrown' in settled) throw settled.thrown;
  yield outputOf(toolCallId, settled.result);
}

/** The AI SDK's execute options that are data, for the tool's `ctx.meta.aiSdk`. */
function metaOf(sdk: SdkOptions): { aiSdk: AiSdkCallMeta } {
  const aiSdk: AiSdkCallMeta = { toolCallId: sdk.toolCallId, messages: sdk.messages ?? [] };
  const context = sdk.context ?? sdk.experimental_context;
  if (context !== undefined) aiSdk.context = context;
  return { aiSdk };
}

/** A definition's own rule, where it has one: whether a call with these arguments may ask (a send may, by taint). */
function definitionRule(definition: AnyTool): { asks?: (args: unknown) => Promise<boolean> } {
  const { needsApproval, effect } = definition;
  if (!needsApproval && effect !== 'send') return {};
  return { asks: async (args) => effect === 'send' || (await requiresApproval(needsApproval, args)) };
}

function isDefinition(tool: ToolSchema | AnyTool): tool is AnyTool {
  return typeof (tool as AnyTool).execute === 'function';
}

interface Offered {
  schema: ToolSchema;
  /** From a definition: whether a call may ask for approval. */
  asks?: (args: unknown) => Promise<boolean>;
}

/** The run's tools, narrowed to `names`; a name the run does not offer is a mistake, not a skip. */
function offered(run: { listTools?: () => ToolSchema[] }, options: AiSdkToolsOptions): Offered[] {
  const { names } = options;
  const listed: Offered[] | undefined = options.tools
    ? options.tools.map((tool) =>
        isDefinition(tool) ? { schema: toolSchema(tool), ...definitionRule(tool) } : { schema: tool },
      )
    : run.listTools?.().map((schema) => ({ schema }));
  if (!listed) {
    throw new TypeError(
      'toAiSdkTools: this run cannot list its tools (a Worker run); pass { tools: definitions }.',
    );
  }
  if (names === undefined) return listed;
  const byName = new Map(listed.map((tool) => [tool.schema.name, tool]));
  const missing = names.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    throw new TypeError(
      `toAiSdkTools: the run does not offer ${missing.map((name) => `"${name}"`).join(', ')}. ` +
        `It offers: ${listed.map((tool) => tool.schema.name).join(', ') || 'no tools'} (in plan, only read tools).`,
    );
  }
  return names.map((name) => byName.get(name)!);
}
