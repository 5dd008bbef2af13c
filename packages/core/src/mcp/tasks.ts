// MCP's Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on 2026-07-28: a call the client
// follows by id. A task is a toolctx call in a run of its own, held by a task host (in memory on
// Node; a run's Durable Object on Workers); this module is the wire: what a task looks like to the
// client, and the `tasks/*` methods over any host.
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { AskAnswer, OpenAsk } from '../ask/ask.js';
import type { Identity } from '../context/types.js';
import type { Phase } from '../policy/phase.js';
import type { CallHandle, CallStatus, KeptResult, SavedArtifact } from '../runtime/call-book.js';
import { identified } from '../runtime/run-facts.js';
import type { AnyTool } from '../tools/define-tool.js';
import { withLinks } from './artifact-resources.js';
import { toCallToolResult } from './content.js';
import {
  answersOf,
  approvalAsk,
  approvalDecisionOf,
  approvalKey,
  inputRequestsOf,
} from './input-required.js';

/**
 * The Tasks extension's name, as clients declare it and servers list it under `capabilities.extensions`.
 *
 * @example
 * ```ts
 * import { tasksExtension } from '@toolctx/core/mcp';
 * const capabilities = { extensions: { [tasksExtension]: {} } }; // what a client declares
 * ```
 */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/**
 * A task as its host reports it: plain data (a Durable Object's RPC carries it). A task is one
 * call in a run of its own; the task id is both the run's id and the call's (`ctx.toolCallId`).
 *
 * @experimental The Tasks extension is new; this shape may change with it.
 * @example
 * ```ts
 * import type { McpTaskState } from '@toolctx/core/mcp';
 * declare const task: McpTaskState;
 * if (task.status === 'input_required') console.log(task.asks?.map((ask) => ask.key));
 * ```
 */
export interface McpTaskState {
  taskId: string;
  status: CallStatus;
  /** ms since the epoch. */
  createdAt: number;
  /** When its status last changed, ms since the epoch. */
  updatedAt: number;
  /** How long the task is kept from its creation, in ms: `tasks/get` finds it at least that long. */
  ttlMs: number;
  /** While `input_required`: the open questions, each under its key (an approval under `toolctx.approval`). */
  asks?: OpenAsk[];
  /** Once settled: the call's result. */
  result?: KeptResult;
  /** Once settled: the artifacts its call saved (`CallHandle.artifacts`), linked from its result. */
  artifacts?: SavedArtifact[];
}

/**
 * What starts a task: a `tools/call` the door turned into one.
 *
 * @experimental
 * @example
 * ```ts
 * import type { McpTaskHost, McpTaskStart } from '@toolctx/core/mcp';
 * declare const host: McpTaskHost;
 * const start: McpTaskStart = { owner: 'null', phase: 'act', tool: 'export', args: {}, answers: {}, waitMs: 0 };
 * const task = await host.start(start); // durable once this resolves
 * ```
 */
export interface McpTaskStart {
  /** Whose task it is: only this owner's `tasks/*` requests find it (another gets "unknown task"). */
  owner: string;
  identity?: Identity;
  phase: Phase;
  tool: string;
  args: unknown;
  /** Answers the client gave in earlier rounds, by ask key: an ask under one of them is answered at once. */
  answers: Readonly<Record<string, AskAnswer>>;
  /** How long to wait for the call to settle or ask before answering, in ms (0: answer once it is durable). */
  waitMs: number;
}

/**
 * Where tasks live: `start` answers only once the task is durable (a `tasks/get` anywhere finds
 * it); every other method answers `undefined` (or `false`) for a task that does not exist for
 * `owner`, which is what another owner's task is too.
 *
 * @experimental
 * @example
 * ```ts
 * import type { McpTaskHost } from '@toolctx/core/mcp';
 * declare const host: McpTaskHost;
 * const task = await host.get('{"tenant":"acme","principal":"ana"}', 'task_1');
 * if (task?.status === 'completed') console.log(task.result);
 * ```
 */
export interface McpTaskHost {
  /** Starts a task and answers it once it is durable, after waiting up to `task.waitMs` for it to settle or ask. */
  start(task: McpTaskStart): Promise<McpTaskState>;
  /** The task as it is now. */
  get(owner: string, taskId: string): Promise<McpTaskState | undefined>;
  /** Delivers answers by ask key; keys of no open ask are ignored. Whether the task exists. */
  update(owner: string, taskId: string, answers: Record<string, AskAnswer>): Promise<boolean>;
  /** Cancels the task's call (its `ctx.signal` fires); a settled task stays as it is. Whether the task exists. */
  cancel(owner: string, taskId: string): Promise<boolean>;
  /** Drops a task the client will never hear of (it settled or asked within the window). */
  forget(owner: string, taskId: string): Promise<void>;
}

/**
 * A task's state from its call's handle (the task id is the call's id): an approval the call
 * waits for is its one question, under `toolctx.approval`, in the tool's words (its arguments when
 * `args` is given).
 *
 * @experimental
 * @example
 * ```ts
 * import type { CallHandle } from '@toolctx/core';
 * import { taskStateOf } from '@toolctx/core/mcp';
 * declare const handle: CallHandle; // the task's call, from its run
 * const task = taskStateOf(handle, undefined, 60 * 60_000);
 * ```
 */
export function taskStateOf(
  handle: CallHandle,
  tool: AnyTool | undefined,
  ttlMs: number,
  args?: unknown,
): McpTaskState {
  const { toolCallId: taskId, status, startedAt: createdAt, updatedAt, result, approvalId, asks } = handle;
  const base = { taskId, status, createdAt, updatedAt, ttlMs };
  if (status === 'input_required' && approvalId !== undefined) {
    return { ...base, asks: [approvalAsk(tool, { approvalId, toolName: handle.tool, args }, taskId)] };
  }
  const { artifacts } = handle;
  return {
    ...base,
    ...(asks ? { asks: [...asks] } : {}),
    ...(result ? { result } : {}),
    ...(artifacts ? { artifacts } : {}),
  };
}

/**
 * What a client's answers do to a task: the open asks they answer (by key), and the decision of
 * the approval it waits for (an answer that does not fit the approval form decides nothing).
 * Keys of no open question are ignored.
 *
 * @experimental
 * @example
 * ```ts
 * import { type McpTaskState, taskAnswers } from '@toolctx/core/mcp';
 * declare const task: McpTaskState;
 * const { asks, approval } = taskAnswers(task, { colour: { action: 'accept', values: { colour: 'teal' } } });
 * ```
 */
export function taskAnswers(
  task: McpTaskState,
  answers: Readonly<Record<string, AskAnswer>>,
): {
  asks: { askId: string; answer: AskAnswer }[];
  approval?: { approvalId: string; decision: ApprovalDecision };
} {
  const asks: { askId: string; answer: AskAnswer }[] = [];
  let approval: { approvalId: string; decision: ApprovalDecision } | undefined;
  for (const ask of task.asks ?? []) {
    if (!Object.hasOwn(answers, ask.key)) continue;
    const answer = answers[ask.key]!;
    if (ask.key !== approvalKey) asks.push({ askId: ask.askId, answer });
    else {
      const decision = approvalDecisionOf(ask, answer);
      if (decision) approval = { approvalId: ask.askId, decision };
    }
  }
  return { asks, ...(approval ? { approval } : {}) };
}

/** Whether this request's client declared the Tasks extension (per request, in its `_meta`). */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[tasksExtension] !== undefined;
}

/** The error for work that can only be a task, to a client that did not declare the extension. */
export function tasksRequired(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [tasksExtension]: {} } },
  });
}

/** How often a client should poll a working task, in ms. */
const pollIntervalMs = 1000;

/** The flat `CreateTaskResult` of a task (no result, error or input requests: those are `tasks/get`'s). */
export function createTaskResult(task: McpTaskState): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(task) };
}

function taskFields(task: McpTaskState): Record<string, unknown> {
  const message = task.asks?.[0]?.message;
  return {
    taskId: task.taskId,
    status: wireStatus(task),
    ...(message === undefined ? {} : { statusMessage: message }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: Math.max(1, Math.round(task.ttlMs)),
    pollIntervalMs,
  };
}

/**
 * The kinds of failure that are the host's, not the tool's: a task that ended so is `failed` with
 * a JSON-RPC error; any other failure ran the tool, so its task is `completed` with `isError`.
 */
const hostFaults = new Set(['internal', 'interrupted', 'door-lost']);

/** Whether a task's owner (`JSON.stringify` of its identity, or `null`) has a scope to read artifacts in. */
const readsArtifacts = (owner: string) => identified(JSON.parse(owner) as Identity | null);

function wireStatus(task: McpTaskState): CallStatus {
  const { result } = task;
  if (task.status !== 'failed' || !result || result.ok) return task.status;
  return hostFaults.has(result.error.kind) ? 'failed' : 'completed';
}

/**
 * `tasks/get`'s answer to `owner`: the task with its input requests, its whole result, or its
 * error. The result is what `tools/call` would have answered: `resultType: 'complete'` included
 * (2026 makes it a required field of every result; the official Tasks client rejects a result
 * without it), and, where the server serves artifacts as resources (`servesArtifacts`), a
 * `resource_link` to each artifact its call saved, for an owner who can read them (an identified
 * caller; an anonymous one has no scope to read in).
 */
export function detailedTask(
  task: McpTaskState,
  owner: string,
  servesArtifacts: boolean,
): Record<string, unknown> {
  const fields = taskFields(task);
  const { result } = task;
  if (fields.status === 'input_required' && task.asks?.length) {
    return { ...fields, inputRequests: inputRequestsOf(task.asks) };
  }
  if (fields.status === 'failed' && result && !result.ok) {
    const { kind, message, retryable } = result.error;
    return { ...fields, error: { code: -32603, message, data: { kind, retryable: retryable ?? false } } };
  }
  if (fields.status === 'completed' && result) {
    const content = toCallToolResult(result);
    const linked =
      task.artifacts && servesArtifacts && readsArtifacts(owner)
        ? withLinks(content, task.artifacts)
        : content;
    return { ...fields, result: { ...linked, resultType: 'complete' } };
  }
  return fields;
}

interface TaskParams {
  taskId: string;
  inputResponses?: unknown;
}

/** `{ taskId: string, … }`, as a Standard Schema: what the SDK checks `tasks/*` params with. */
const taskParams: StandardSchemaV1<TaskParams> = {
  '~standard': {
    version: 1,
    vendor: 'toolctx',
    validate(value) {
      const taskId = (value as { taskId?: unknown } | null)?.taskId;
      return typeof taskId === 'string' && taskId !== ''
        ? { value: value as TaskParams }
        : {
            issues: [
              { message: 'params.taskId must be the id of a task (a non-empty string)', path: ['taskId'] },
            ],
          };
    },
  },
};

const unknownTask = (taskId: string) =>
  new ProtocolError(
    -32602,
    `Unknown task ${JSON.stringify(taskId)}: it never existed, or its time to live passed.`,
  );

/**
 * Installs `tasks/get`, `tasks/update` and `tasks/cancel` over `host` on a 2026 server. A client
 * that did not declare the extension gets `-32021`; a task that is not the caller's (`ownerOf`)
 * answers exactly as one that never existed, `-32602`. A task's result links the artifacts its call
 * saved where the server serves them (`servesArtifacts`).
 */
export function serveTaskMethods(
  low: Server,
  host: McpTaskHost,
  ownerOf: (ctx: ServerContext) => string,
  servesArtifacts: boolean,
): void {
  const gate = (ctx: ServerContext) => {
    if (!declaresTasks(ctx)) throw tasksRequired();
    return ownerOf(ctx);
  };
  low.setRequestHandler('tasks/get', { params: taskParams }, async ({ taskId }, ctx) => {
    const owner = gate(ctx);
    const task = await host.get(owner, taskId);
    if (!task) throw unknownTask(taskId);
    return detailedTask(task, owner, servesArtifacts) as never;
  });
  low.setRequestHandler('tasks/update', { params: taskParams }, async ({ taskId, inputResponses }, ctx) => {
    const owner = gate(ctx);
    const answers = answersOf(inputResponses ?? ctx.mcpReq.inputResponses);
    if (!(await host.update(owner, taskId, answers))) throw unknownTask(taskId);
    return {};
  });
  low.setRequestHandler('tasks/cancel', { params: taskParams }, async ({ taskId }, ctx) => {
    if (!(await host.cancel(gate(ctx), taskId))) throw unknownTask(taskId);
    return {};
  });
}
