import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { CallableRun, Run } from '../runtime/run-api.js';
import { cancelledByCaller } from '../runtime/run-facts.js';
import { aiSdkOutput } from './tool-output.js';

/**
 * A client-side tool call, as the AI SDK's `onToolCall` hands it over.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export interface ChatToolCall {
  toolName: string;
  toolCallId: string;
  input: unknown;
}

/**
 * The answer `chat.addToolOutput` takes: the output, or the error the model reads.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export type ChatToolOutput =
  | { tool: string; toolCallId: string; output: unknown }
  | { tool: string; toolCallId: string; state: 'output-error'; errorText: string };

/**
 * What {@link chatTools} uses of an AI SDK chat: the `Chat` of `@ai-sdk/react`, `@ai-sdk/vue`,
 * `@ai-sdk/svelte`, or any subclass of `AbstractChat` from `ai`.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export interface ToolOutputChat {
  /** Hands a tool call's output (or its error) back to the chat, which then may send again. */
  addToolOutput(answer: ChatToolOutput): unknown;
  /** Replaced by {@link ChatTools.stop}, which calls it: so the chat's own stop cancels tools too. */
  stop?: () => Promise<void>;
}

/**
 * A run of any door that can be resumed and can cancel a call by its id (running, or waiting for
 * approval): a local `Run`, a Worker run from `connectWorker`.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export interface ChatRun extends CallableRun, Pick<Run, 'resume'> {
  /** Cancels the call with this id in the run: running, resumed, or waiting for approval. */
  cancel(toolCallId: string, reason?: string): unknown;
}

/**
 * Options of {@link chatTools}.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export interface ChatToolsOptions {
  /** Run only these tools; calls of other tools are left to the app. Default: every call. */
  names?: readonly string[];
}

/**
 * The helper {@link chatTools} makes; its `cancel` and `resume` fit `attachStatus`'s `actions`.
 *
 * @experimental May still change with the AI SDK's chat UI.
 */
export interface ChatTools {
  /**
   * Runs the call through the run and answers the chat with `addToolOutput` when it settles;
   * returns at once (the chat goes on streaming), `true` when it took the call, `false` for a tool
   * left to the app (not in `names`).
   */
  onToolCall(options: { toolCall: ChatToolCall }): boolean;
  /**
   * Decides an approval (`run.resume`); when it belongs to a chat call, the chat gets that call's
   * output, or `output-error` with the denial the model reads. Other approvals go to the run as they are.
   */
  resume(approvalId: string, decision: ApprovalDecision): Promise<ToolResult>;
  /** Cancels one chat call: its `ctx.signal` fires and the chat gets `output-error`. Whether it was open. */
  cancel(toolCallId: string): boolean;
  /**
   * Cancels every chat call in flight or waiting for approval, answers each as `output-error`
   * (the run's cancellation message), and stops the chat. `chat.stop()` does the same.
   */
  stop(): Promise<void>;
}

interface OpenCall {
  readonly tool: string;
  readonly toolCallId: string;
  approvalId?: string;
}

/**
 * Runs an AI SDK chat's client-side tool calls (`useChat`, `Chat`: `onToolCall` and
 * `addToolOutput`) through a toolctx run, so each gets its `ctx.signal`, progress in the run's
 * events (and `attachStatus`), artifacts, approval and the run's policy. The chat's `toolCallId`
 * names the call in the run's events and its handle (so chats that share a run need distinct
 * ids, as a provider's are: a second call under a known id answers `output-error`, `conflict`).
 * A failure answers `state: 'output-error'` with the
 * ErrorInfo's `message` (written for a model): an unknown tool or arguments that fail the schema
 * run nothing and say what was wrong. A call waiting for approval is answered once a person decides
 * through `resume`. `chat.stop` is replaced by {@link ChatTools.stop}: a pending client tool
 * outlives the response stream, so the chat's own stop would not reach it.
 *
 * @experimental May still change with the AI SDK's chat UI.
 * @example
 * ```ts
 * import { createRuntime, defineTool } from '@toolctx/core';
 * import { chatTools } from '@toolctx/core/ai-sdk';
 * import { AbstractChat, type ChatInit, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
 * import { z } from 'zod';
 * declare class Chat extends AbstractChat<UIMessage> { constructor(init: ChatInit<UIMessage>) } // e.g. from @ai-sdk/react
 *
 * const getLocation = defineTool({
 *   name: 'getLocation',
 *   description: "The user's city.",
 *   inputSchema: z.object({}),
 *   execute: async (_args, ctx) => (await fetch('/api/city', { signal: ctx.signal })).text(),
 * });
 * const run = createRuntime({ tools: [getLocation] }).startRun();
 * const chat = new Chat({
 *   sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
 *   onToolCall: (call) => void tools.onToolCall(call),
 * });
 * const tools = chatTools(chat, run);
 * await chat.sendMessage({ text: 'Where am I?' });
 * ```
 */
export function chatTools(chat: ToolOutputChat, run: ChatRun, options: ChatToolsOptions = {}): ChatTools {
  const only = options.names ? new Set(options.names) : undefined;
  const open = new Map<string, OpenCall>(); // by toolCallId, until the chat has its answer
  const waiting = new Map<string, OpenCall>(); // by approvalId, until decided
  const chatStop = chat.stop;

  const answer = (call: OpenCall, error?: ErrorInfo, output?: unknown) => {
    open.delete(call.toolCallId);
    if (call.approvalId !== undefined) waiting.delete(call.approvalId);
    const { tool, toolCallId } = call;
    // Not awaited: the chat answers in a queue that may be running the very stream that called us.
    void chat.addToolOutput(
      error
        ? { tool, toolCallId, state: 'output-error', errorText: error.message }
        : { tool, toolCallId, output },
    );
  };
  const settle = (call: OpenCall, result: ToolResult) => {
    if (open.get(call.toolCallId) !== call) return; // answered already: cancelled or stopped
    if (!result.ok && result.error.kind === 'approval-pending') {
      const approvalId = result.error.details?.approvalId;
      if (typeof approvalId === 'string') {
        call.approvalId = approvalId;
        waiting.set(approvalId, call);
        return;
      }
    }
    if (result.ok) answer(call, undefined, aiSdkOutput(result));
    else answer(call, result.error);
  };
  const lost = (call: OpenCall) => (thrown: unknown) => {
    const name = thrown instanceof Error ? thrown.name : typeof thrown;
    const message = `\`${call.tool}\` could not be run: its door failed (${name}).`;
    settle(call, { ok: false, error: { kind: 'internal', message, retryable: false } });
  };
  /**
   * Cancels an open call in its run (running, resumed, or waiting for approval: the run owns it)
   * and answers the chat now, with the message the run gives a cancelled call.
   */
  const cancelNow = (call: OpenCall) => {
    run.cancel(call.toolCallId);
    answer(call, cancelledByCaller);
  };

  const tools: ChatTools = {
    onToolCall({ toolCall }) {
      const { toolName: tool, toolCallId, input } = toolCall;
      if (only && !only.has(tool)) return false;
      if (open.has(toolCallId)) return true; // a replayed stream: the call runs once
      const call: OpenCall = { tool, toolCallId };
      open.set(toolCallId, call);
      run.call({ tool, args: input, toolCallId }).then((result) => settle(call, result), lost(call));
      return true;
    },
    async resume(approvalId, decision) {
      const call = waiting.get(approvalId);
      if (!call) return run.resume(approvalId, decision);
      // Decided once: a second press goes to the run, which refuses it, and leaves the chat alone.
      waiting.delete(approvalId);
      call.approvalId = undefined;
      const result = await run.resume(approvalId, decision).catch((thrown) => {
        lost(call)(thrown);
        throw thrown;
      });
      settle(call, result);
      return result;
    },
    cancel(toolCallId) {
      const call = open.get(toolCallId);
      if (call) cancelNow(call);
      return call !== undefined;
    },
    async stop() {
      // The chat's stop starts first: answers given while it stops do not make the chat send again.
      const stopping = chatStop?.call(chat);
      for (const call of [...open.values()]) cancelNow(call);
      await stopping;
    },
  };
  if (chatStop) chat.stop = tools.stop;
  return tools;
}
