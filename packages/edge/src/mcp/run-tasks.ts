// MCP tasks on Workers: each task is a run of its own (run id = task id) in the run host's Durable
// Objects, so `tasks/get` on any isolate reaches the one object that holds it, its call record is
// durable before the task is answered, and the task lives as long as the run is kept.

import { ProtocolError } from '@modelcontextprotocol/server';
import type { AskAnswer, CallHandle, Identity, OpenApproval, Runtime } from '@toolctx/core';
import { type McpTaskHost, type McpTaskState, taskAnswers, taskStateOf } from '@toolctx/core/mcp';
import type { Reply } from '../door/door-error.js';
import type { DoorRun, RunDirectory } from '../run-host/index.js';

/**
 * Options of {@link runTaskHost}.
 *
 * @experimental MCP tasks on Durable Objects are new; the options may still change.
 *
 * @example
 * ```ts
 * import type { RunTaskHostOptions } from '@toolctx/edge';
 * const options: RunTaskHostOptions = { ttlMs: 24 * 60 * 60_000 }; // the run host's retentionMs
 * ```
 */
export interface RunTaskHostOptions {
  /**
   * How long a task is kept, in ms: the run host's `retentionMs` (a run is kept that long after it
   * ends, and it ends after its call settles), so `tasks/get` finds it at least this long after its
   * creation. Default a day, the run host's default.
   */
  ttlMs?: number | undefined;
}

/** Whose anonymous tasks are: a caller without an identity holds a task by its unguessable id alone. */
const anonymous: Identity = { tenant: 'toolctx-anonymous', principal: 'mcp' };

/**
 * MCP tasks in runs (`durableObjectRuns(env.RUNS)` on Workers): `mountMcp`'s `tasks` option makes
 * one from it. A task's run answers only the identity that started it; another identity's
 * `tasks/get` gets exactly what an unknown task id gets.
 *
 * @experimental
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { durableObjectRuns, type ExampleWorkerEnv, runTaskHost } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
 * const tasks = runTaskHost(durableObjectRuns(env.RUNS), createRuntime({ tools: [] }));
 * ```
 */
export function runTaskHost(
  runs: RunDirectory,
  runtime: Runtime,
  options: RunTaskHostOptions = {},
): McpTaskHost {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60_000;
  const identityOf = (owner: string): Identity => (JSON.parse(owner) as Identity | null) ?? anonymous;
  const stateOf = (handle: CallHandle, args?: unknown) =>
    taskStateOf(handle, runtime.tools.get(handle.tool), ttlMs, args);
  /** The task's run and its one call (whose id is the task's), for `owner`; `undefined` answers as an unknown task. */
  const find = async (owner: string, taskId: string) => {
    const identity = identityOf(owner);
    const run = runs.get(taskId);
    const handle = (await run.callStatus(identity, taskId)) as Reply<CallHandle>;
    return handle.ok ? { run, identity, handle: handle.value } : undefined;
  };
  /** Gives the task's call the answers it has, by key: its open asks, and its approval. */
  const answer = async (
    run: DoorRun,
    identity: Identity,
    task: McpTaskState,
    answers: Readonly<Record<string, AskAnswer>>,
  ) => {
    const { asks, approval } = taskAnswers(task, answers);
    for (const { askId, answer } of asks) await run.answerAsk(identity, askId, answer);
    if (approval) await run.decide(identity, approval.approvalId, approval.decision);
    return asks.length > 0 || approval !== undefined;
  };

  return {
    async start(start) {
      const taskId = `task_${crypto.randomUUID().replaceAll('-', '')}`;
      const identity = start.identity ?? anonymous;
      const createdAt = Date.now();
      const begun = await runs.start({
        runId: taskId,
        identity,
        phase: start.phase,
        createdAt,
        endsWithCall: taskId,
      });
      if (!begun.ok) throw new ProtocolError(-32000, begun.error.message);
      const run = runs.get(taskId);
      const call = { tool: start.tool, args: start.args, toolCallId: taskId, newId: true };
      const started = (await run.startCall(identity, call)) as Reply<CallHandle>;
      if (!started.ok) {
        await run.end(identity);
        throw new ProtocolError(-32000, started.error.message);
      }
      let handle = started.value;
      // The window: the object answers once the call changed (its answers are durable), until it
      // settles or asks what the client has not answered yet: one request per change, no polling.
      const deadline = createdAt + start.waitMs;
      while (start.waitMs > 0) {
        if (
          handle.status === 'input_required' &&
          !(await answer(run, identity, stateOf(handle), start.answers))
        )
          break;
        if (handle.status !== 'working' && handle.status !== 'input_required') break;
        const left = deadline - Date.now();
        if (left <= 0) break;
        const news = await next(run, identity, handle, left);
        if (!news) break; // the object cannot say: the task is what was known last
        handle = news;
      }
      return stateOf(handle, start.args);
    },
    async get(owner, taskId) {
      const task = await find(owner, taskId);
      if (!task) return undefined;
      return stateOf(task.handle, await approvalArgs(task.run, task.identity, task.handle));
    },
    async update(owner, taskId, answers) {
      const task = await find(owner, taskId);
      if (!task) return false;
      await answer(task.run, task.identity, stateOf(task.handle), answers);
      return true;
    },
    async cancel(owner, taskId) {
      const task = await find(owner, taskId);
      if (!task) return false;
      await task.run.cancel(task.identity, task.handle.toolCallId);
      return true;
    },
    async forget(owner, taskId) {
      await runs.get(taskId).end(identityOf(owner));
    },
  };
}

/**
 * The arguments a task's call waiting for approval would run with, so the approval asks in the
 * tool's words and with them (one more read of the run, only while it waits).
 */
async function approvalArgs(run: DoorRun, identity: Identity, handle: CallHandle): Promise<unknown> {
  if (handle.status !== 'input_required' || handle.approvalId === undefined) return undefined;
  const asked = (await run.pendingApproval(identity, handle.approvalId)) as Reply<OpenApproval>;
  return asked.ok ? asked.value.args : undefined;
}

/** The call's handle once it changed, or after `withinMs`; `undefined` if the object cannot say. */
async function next(
  run: DoorRun,
  identity: Identity,
  handle: CallHandle,
  withinMs: number,
): Promise<CallHandle | undefined> {
  const now = (await run.nextCallStatus(identity, handle.toolCallId, handle, withinMs)) as Reply<CallHandle>;
  return now.ok ? now.value : undefined;
}
