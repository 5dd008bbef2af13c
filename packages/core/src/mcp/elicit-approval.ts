import type { ElicitResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { ApprovalPort } from '../approval/approval.js';
import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { AskSchema } from '../ask/ask.js';
import { checkAnswer } from '../ask/check-ask.js';
import type { AnyTool } from '../tools/define-tool.js';
import { approvalMessage } from './approval-message.js';
import {
  canElicit,
  type DeclaredElicitation,
  type ElicitingCall,
  elicit,
  type Unanswered,
  unansweredBecause,
} from './elicit.js';

/** What the approval step needs of the `tools/call` request it asks about. */
interface ApprovingCall extends ElicitingCall {
  /** Ends the call as cancelled: the person cancelled the question. */
  cancel: () => void;
}

/**
 * How long a question waits for its answer when the tool has no timeout: as long as an approval
 * token lives once issued.
 */
export const defaultApprovalWaitMs = 10 * 60_000;

/**
 * For a call that may need approval, from a client that can show a form: the port that asks the
 * person, and the call's signal with the person's cancel added. Any other call keeps its signal.
 */
export function askingPerson(
  server: Server,
  tool: AnyTool | undefined,
  request: ServerContext['mcpReq'],
  declared: DeclaredElicitation,
): { signal: AbortSignal; decidePending?: ApprovalPort } {
  const { signal } = request;
  const mayAsk = tool && (tool.needsApproval || tool.effect === 'send');
  if (!mayAsk || !canElicit(server, 'form')) return { signal };
  const stop = new AbortController();
  if (signal.aborted) stop.abort();
  else signal.addEventListener('abort', () => stop.abort(), { once: true });
  const cancel = () => stop.abort();
  const decidePending = elicitApproval(tool, { send: request.send, signal, cancel }, declared);
  return { signal: stop.signal, decidePending };
}

/** The form: nothing to fill in but an optional note, which goes to the model as the reason. */
export const approvalForm = {
  type: 'object',
  properties: {
    reason: {
      type: 'string',
      title: 'Note (optional)',
      description: 'Passed on to the assistant with your answer.',
      maxLength: 500,
    },
  },
} satisfies AskSchema;

/**
 * The port that decides an MCP call's approval by asking the person through the client
 * (`elicitation/create`, form mode), for a client that declared form elicitation (for any other
 * the call is left `approval-pending`). The question is sent related to the call's
 * own request, so it travels on the call's response stream; it is withdrawn when the call's
 * signal fires, and waits at most the tool's timeout. Accept approves, decline denies, cancel
 * ends the call as cancelled; no answer in time, an answer that does not fit the form, or a
 * failure to ask counts as a denial (fail closed). The runtime binds the decision to this call
 * and its arguments with a one-use token, as for any approval.
 */
function elicitApproval(tool: AnyTool, call: ApprovingCall, declared: DeclaredElicitation): ApprovalPort {
  const timeout = tool.timeoutMs ?? defaultApprovalWaitMs;
  return {
    async request(request): Promise<ApprovalDecision | 'pending'> {
      const message = approvalMessage(tool, request.args);
      let answer: ElicitResult;
      try {
        answer = await elicit(
          call,
          declared,
          { mode: 'form', message, requestedSchema: approvalForm },
          timeout,
        );
      } catch (thrown) {
        // A withdrawn question: the call was cancelled, and ends so whatever is answered here.
        if (call.signal.aborted) return 'pending';
        return { approved: false, reason: whyUnanswered(unansweredBecause(thrown), timeout) };
      }
      const fits = checkAnswer(
        { message, schema: approvalForm },
        { action: answer.action, values: answer.content ?? {} },
      );
      if (!fits.ok) return { approved: false, reason: whyUnanswered('malformed', timeout) };
      if (answer.action === 'cancel') {
        call.cancel();
        return 'pending';
      }
      const note = answer.content?.reason;
      const reason = typeof note === 'string' && note.trim() !== '' ? { reason: note.trim() } : {};
      return { approved: answer.action === 'accept', ...reason };
    },
  };
}

function whyUnanswered(why: Unanswered, timeout: number): string {
  if (why === 'timeout') return `no answer came from the MCP client within ${timeout} ms`;
  if (why === 'malformed') return "the MCP client's answer did not fit the approval form";
  return 'the MCP client could not be asked';
}
