// What the AI SDK's messages say about its tool approvals: the conversation carries them (an
// assistant message's `tool-approval-request`, the next tool message's `tool-approval-response`),
// and no hook tells a tool that its call was denied.

/** A person's answer to the AI SDK's approval request of one tool call. */
export interface SdkApprovalAnswer {
  approved: boolean;
  reason?: string;
}

interface Part {
  type?: unknown;
  approvalId?: unknown;
  toolCallId?: unknown;
  approved?: unknown;
  reason?: unknown;
}

/** The answers given in `messages`, by the tool call they answer. */
export function sdkApprovalAnswers(messages: readonly unknown[] | undefined): Map<string, SdkApprovalAnswer> {
  const callOf = new Map<string, string>();
  const answers = new Map<string, SdkApprovalAnswer>();
  for (const part of partsOf(messages)) {
    if (part.type === 'tool-approval-request' && typeof part.approvalId === 'string') {
      if (typeof part.toolCallId === 'string') callOf.set(part.approvalId, part.toolCallId);
    }
  }
  for (const part of partsOf(messages)) {
    if (part.type !== 'tool-approval-response' || typeof part.approvalId !== 'string') continue;
    const toolCallId = callOf.get(part.approvalId);
    if (toolCallId === undefined || typeof part.approved !== 'boolean') continue;
    const answer: SdkApprovalAnswer = { approved: part.approved };
    if (typeof part.reason === 'string') answer.reason = part.reason;
    answers.set(toolCallId, answer);
  }
  return answers;
}

function* partsOf(messages: readonly unknown[] | undefined): Generator<Part> {
  for (const message of messages ?? []) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) if (part && typeof part === 'object') yield part as Part;
  }
}
