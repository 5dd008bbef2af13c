// MCP tasks in this process's memory: each task a run of its own (`runId` = task id) with one
// call, which the run owns (status, asks, approval, result). For hosts of one process (Node);
// on Workers, tasks live in run Durable Objects instead (`mountMcp`).
import { ProtocolError } from '@modelcontextprotocol/server';
import type { AskAnswer } from '../ask/ask.js';
import { randomId } from '../random-id.js';
import type { Runtime } from '../runtime/create-runtime.js';
import type { DoorDeclaration } from '../runtime/door.js';
import type { Run } from '../runtime/run-api.js';
import { type McpTaskHost, type McpTaskState, taskAnswers, taskStateOf } from './tasks.js';

/**
 * The door of MCP tasks: a task is a run (`ctx.runId` is the task id) of one call, whose `call` and
 * `run` cleanups fire as it ends; an approval it waits for is decided by the client's
 * `tasks/update`.
 *
 * @experimental
 * @example
 * ```ts
 * import { mcpTaskDoor } from '@toolctx/core/mcp';
 * mcpTaskDoor.runIds; // true
 * ```
 */
export const mcpTaskDoor: DoorDeclaration = Object.freeze({
  name: 'mcp-task',
  teardownScopes: Object.freeze(['call', 'run'] as const),
  runIds: true,
  dispatch: false,
  decides:
    'This call is an MCP task waiting for approval: answer its "toolctx.approval" input request with tasks/update.',
});

/**
 * Options of {@link memoryTaskHost}.
 *
 * @example
 * ```ts
 * import type { MemoryTaskHostOptions } from '@toolctx/core/mcp';
 * const options: MemoryTaskHostOptions = { ttlMs: 10 * 60_000, maxTasks: 100 };
 * ```
 */
export interface MemoryTaskHostOptions {
  /** How long a task is kept after it settled, in ms (its `ttlMs`, so at least that long from its creation). Default 1 hour. */
  ttlMs?: number;
  /** The most tasks kept at once; past it a new task is refused with `-32603`, naming this option. Default 1000. */
  maxTasks?: number;
}

interface HeldTask {
  owner: string;
  run: Run;
  tool: string;
  args: unknown;
  createdAt: number;
}

/**
 * Tasks in memory, for {@link serveMcpHttp} and {@link serveMcpStateless} (their default): kept
 * for `ttlMs`, gone when the process ends.
 *
 * @experimental
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { memoryTaskHost, serveMcpHttp } from '@toolctx/core/mcp';
 * declare const tools: AnyTool[];
 *
 * const runtime = createRuntime({ tools });
 * const mcp = serveMcpHttp(runtime, { tasks: memoryTaskHost(runtime, { ttlMs: 10 * 60_000 }) });
 * ```
 */
export function memoryTaskHost(runtime: Runtime, options: MemoryTaskHostOptions = {}): McpTaskHost {
  const door = runtime.withDoor(mcpTaskDoor);
  const ttlMs = options.ttlMs ?? 60 * 60_000;
  const maxTasks = options.maxTasks ?? 1000;
  const tasks = new Map<string, HeldTask>();

  const state = (taskId: string, task: HeldTask): McpTaskState => {
    const handle = task.run.callStatus(taskId);
    if (!handle)
      return { taskId, status: 'working', createdAt: task.createdAt, updatedAt: task.createdAt, ttlMs };
    return taskStateOf(handle, door.tools.get(task.tool), ttlMs, task.args);
  };
  const sweep = () => {
    const now = Date.now();
    for (const [taskId, task] of tasks) {
      // A task is kept `ttlMs` after it settled, so a long one's result is there to read too.
      const { status, updatedAt } = state(taskId, task);
      if (now - updatedAt < ttlMs || status === 'working' || status === 'input_required') continue;
      tasks.delete(taskId);
      void task.run.end();
    }
  };
  const find = (owner: string, taskId: string) => {
    sweep();
    const task = tasks.get(taskId);
    return task && task.owner === owner ? task : undefined;
  };
  /** Gives the task's call the answers it has, by key: its open asks, and its approval. */
  const answer = async (taskId: string, task: HeldTask, answers: Readonly<Record<string, AskAnswer>>) => {
    const { asks, approval } = taskAnswers(state(taskId, task), answers);
    for (const { askId, answer } of asks) await task.run.answer(askId, answer);
    if (approval) task.run.decide(approval.approvalId, approval.decision);
  };

  return {
    async start(start) {
      sweep();
      if (tasks.size >= maxTasks) {
        throw new ProtocolError(
          -32000,
          `This server holds its limit of ${maxTasks} MCP tasks: wait for some to lapse, or raise memoryTaskHost's maxTasks.`,
        );
      }
      const taskId = randomId('task_');
      let changed = () => {};
      const run = door.startRun({
        runId: taskId,
        phase: start.phase,
        // Every event may be a change of status: the window below looks again.
        onEvent: () => changed(),
        ...(start.identity ? { identity: start.identity } : {}),
      });
      const task: HeldTask = {
        owner: start.owner,
        run,
        tool: start.tool,
        args: start.args,
        createdAt: Date.now(),
      };
      tasks.set(taskId, task);
      // Settled, or waiting for an approval: the run's record says which.
      void run.call({ tool: start.tool, args: start.args, toolCallId: taskId }).then(() => changed());
      if (start.waitMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, start.waitMs);
          changed = () => {
            const now = state(taskId, task);
            if (now.status === 'working') return;
            // What the client answered in earlier rounds answers the task's questions at once.
            const seeded = taskAnswers(now, start.answers);
            if (seeded.asks.length > 0 || seeded.approval) return void answer(taskId, task, start.answers);
            clearTimeout(timer);
            resolve();
          };
          changed();
        });
        changed = () => {};
      }
      return state(taskId, task);
    },
    async get(owner, taskId) {
      const task = find(owner, taskId);
      return task && state(taskId, task);
    },
    async update(owner, taskId, answers) {
      const task = find(owner, taskId);
      if (!task) return false;
      await answer(taskId, task, answers);
      return true;
    },
    async cancel(owner, taskId) {
      const task = find(owner, taskId);
      if (!task) return false;
      task.run.cancel(taskId, 'the client cancelled the task');
      return true;
    },
    async forget(owner, taskId) {
      const task = find(owner, taskId);
      if (!task) return;
      tasks.delete(taskId);
      await task.run.end();
    },
  };
}
