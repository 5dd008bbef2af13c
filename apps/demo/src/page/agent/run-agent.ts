// The scripted agent: the AI SDK's generateText with a model that needs no network, calling the
// demo's tools through toAiSdkTools on one side's run. Loaded only when a visitor starts it, so
// the AI SDK stays out of the page's first load.
import type { ApprovalDecision, ToolResult } from '@toolctx/core';
import { toAiSdkTools } from '@toolctx/core/ai-sdk';
import { generateText, type ModelMessage, stepCountIs, type ToolApprovalResponse } from 'ai';
import { demoTools } from '../../tools.js';
import type { AgentRun } from '../side.js';
import { AGENT_TASK, scriptedModel } from './scripted-model.js';

/** What the agent tells the panel as it goes. */
export interface AgentHooks {
  /** The gather_sources pace the visitor chose, read when the model asks for that step. */
  paceMs(): number;
  /** A line for the agent's log. */
  note(text: string): void;
  /** A call waits for toolctx approval `approvalId`: resolves with the person's decision. */
  approval(approvalId: string, toolCallId: string): Promise<ApprovalDecision>;
}

/**
 * Runs the task to its end (or until `signal` fires); resolves with the model's last text. A call
 * that needs approval pauses generateText the AI SDK's way (a `tool-approval-request`); the
 * person's decision goes back as a `tool-approval-response` and the next generateText goes on
 * from there: approved, toAiSdkTools resumes the call on the run's one-use token; denied, the
 * model reads `execution-denied` and the tool never runs.
 */
export async function runAgent(run: AgentRun, hooks: AgentHooks, signal: AbortSignal): Promise<string> {
  const approvals = new Map<string, string>();
  // A Worker run cannot list its tools: the definitions both sides serve say which calls ask.
  const tools = toAiSdkTools(watchingApprovals(run, approvals, hooks), { tools: demoTools });
  const model = scriptedModel(hooks.paceMs);
  const messages: ModelMessage[] = [{ role: 'user', content: AGENT_TASK }];
  for (;;) {
    const step = await generateText({
      model,
      tools,
      messages,
      stopWhen: stepCountIs(8),
      abortSignal: signal,
    });
    messages.push(...step.response.messages);
    const responses: ToolApprovalResponse[] = [];
    for (const part of step.content) {
      if (part.type !== 'tool-approval-request') continue;
      const { toolCallId, toolName } = part.toolCall;
      const approvalId = approvals.get(toolCallId);
      if (approvalId === undefined) throw new Error(`No toolctx approval waits for ${toolName}.`);
      hooks.note(`Paused: ${toolName} waits for your approval: Approve or Deny it on its status line.`);
      const decision = await hooks.approval(approvalId, toolCallId);
      // Stopped while it waited: the denial the Stop gave settles the call; the agent goes no further.
      signal.throwIfAborted();
      hooks.note(
        decision.approved
          ? `Approved: ${toolName} runs, the agent goes on.`
          : `Denied: ${toolName} does not run (${decision.reason ?? 'no reason given'}).`,
      );
      responses.push({
        type: 'tool-approval-response',
        approvalId: part.approvalId,
        approved: decision.approved,
        ...(decision.reason ? { reason: decision.reason } : {}),
      });
    }
    if (responses.length === 0) return step.text;
    messages.push({ role: 'tool', content: responses });
  }
}

/**
 * `run` whose calls tell the log what the model called, and keep the toolctx approval each paused
 * call waits on, by tool call: the AI SDK's request names the call, the widget's Approve and Deny
 * name the approval.
 */
function watchingApprovals(run: AgentRun, approvals: Map<string, string>, hooks: AgentHooks): AgentRun {
  return Object.assign(Object.create(run) as AgentRun, {
    async call(request: Parameters<AgentRun['call']>[0]): Promise<ToolResult> {
      hooks.note(`The model calls ${request.tool}.`);
      const result = await run.call(request);
      const approvalId = result.ok ? undefined : result.error.details?.approvalId;
      if (!result.ok && result.error.kind === 'approval-pending' && typeof approvalId === 'string')
        approvals.set(request.toolCallId ?? '', approvalId);
      return result;
    },
  });
}
