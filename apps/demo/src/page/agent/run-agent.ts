// The scripted agent: the AI SDK's generateText with a model that needs no network, calling the
// demo's tools through toAiSdkTools on one side's run. Loaded only when a visitor starts it, so
// the AI SDK stays out of the page's first load.
import { type CallableRun, ToolctxError, type ToolResult, toolSchema } from '@toolctx/core';
import { toAiSdkTools } from '@toolctx/core/ai-sdk';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { demoTools } from '../../tools.js';
import { AGENT_TASK, scriptedModel } from './scripted-model.js';

/** What the agent tells the panel as it goes. */
export interface AgentHooks {
  /** The gather_sources pace the visitor chose, read when the model asks for that step. */
  paceMs(): number;
  /** A line for the agent's log. */
  note(text: string): void;
  /** A call waits for approval: resolves with the person's answer (the resumed call's result). */
  approval(approvalId: string, toolCallId: string): Promise<ToolResult>;
}

/** Runs the task to its end (or until `signal` fires); resolves with the model's last text. */
export async function runAgent(run: CallableRun, hooks: AgentHooks, signal: AbortSignal): Promise<string> {
  // A Worker run cannot list its tools, so the schemas come from the definitions both sides serve.
  const tools = pauseForApproval(toAiSdkTools(run, { tools: demoTools.map(toolSchema) }), hooks);
  const { text } = await generateText({
    model: scriptedModel(hooks.paceMs),
    tools,
    stopWhen: stepCountIs(8),
    abortSignal: signal,
    prompt: AGENT_TASK,
  });
  return text;
}

/**
 * A call left `approval-pending` pauses the agent inside its tool call until a person decides:
 * approved, the resumed call's value is the tool's output, so the model never sees the wait.
 */
function pauseForApproval(tools: ToolSet, hooks: AgentHooks): ToolSet {
  const paused: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute!;
    paused[name] = {
      ...tool,
      async execute(args, options) {
        hooks.note(`The model calls ${name}.`);
        try {
          return await execute(args, options);
        } catch (error) {
          if (!isApprovalPending(error)) throw error;
          hooks.note(`Paused: ${name} waits for your approval: Approve or Deny it on its status line.`);
          const result = await hooks.approval(String(error.info?.details?.approvalId), options.toolCallId);
          if (!result.ok) throw new ToolctxError(result.error.kind, result.error.message);
          hooks.note(`Approved: ${name} ran, the agent goes on.`);
          return result.value;
        }
      },
    };
  }
  return paused;
}

/** Read by shape: `@toolctx/core/ai-sdk` may carry its own copy of the error class. */
function isApprovalPending(error: unknown): error is ToolctxError {
  return error instanceof Error && (error as Partial<ToolctxError>).kind === 'approval-pending';
}
