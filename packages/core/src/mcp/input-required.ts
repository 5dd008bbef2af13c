// A tool's asks over MCP 2026-07-28, which has no server-pushed elicitation: multi round-trip
// requests (MRTR). The call's asks end the round as an `input_required` result whose
// `requestState` is sealed (HMAC, the SDK's codec); the client's retry carries it back with its
// `inputResponses`, and the same call (by its id) runs again from the start with every answer so
// far, getting past the asks it made before.
import {
  createRequestStateCodec,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequests,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type ApprovalPort, argsHash } from '../approval/approval.js';
import type { ApprovalDecision } from '../approval/approval-decision.js';
import type { AskAnswer, OpenAsk } from '../ask/ask.js';
import { checkAnswer } from '../ask/check-ask.js';
import { randomId } from '../random-id.js';
import type { AnyTool } from '../tools/define-tool.js';
import { approvalMessage } from './approval-message.js';
import { approvalForm } from './elicit-approval.js';

type FormSchema = ElicitRequestFormParams['requestedSchema'];

/** What a round's `requestState` carries, signed (readable by the client, not changeable). */
interface SealedRound {
  v: 1;
  tool: string;
  toolCallId: string;
  argsHash: string;
  /** Every answer so far, by the ask's key. */
  answers: Record<string, AskAnswer>;
  /** The keys this round asked: the retry's `inputResponses` are read under these. */
  open: string[];
  /** Each state is good for one retry. */
  nonce: string;
}

/** How long a round's state is good for, in seconds: the longest an ask waits by default. */
const stateTtlSeconds = 600;

/** The rounds of one server factory: its codec and the states already used. */
export interface McpRounds {
  /** Verifies a retry's state (the SDK's `requestState.verify` hook): a throw is `-32602`. */
  verify(state: string, ctx: ServerContext): Promise<SealedRound>;
  /** The call a `tools/call` request runs as, and the answers it has. */
  resume(
    ctx: ServerContext,
    tool: string,
    args: unknown,
  ): Promise<{ toolCallId: string; answers: Record<string, AskAnswer> }>;
  /** The `input_required` result that asks `asks` and seals the round. */
  inputRequired(
    ctx: ServerContext,
    call: { tool: string; args: unknown; toolCallId: string; answers: Record<string, AskAnswer> },
    asks: readonly OpenAsk[],
  ): Promise<InputRequiredResult>;
}

/**
 * The rounds of a server factory whose states are signed with `key` (at least 32 bytes) and bound
 * to the caller's identity (`identityOf`) and the method: a state minted for one identity, tool,
 * call or set of arguments is refused for any other, as is an expired or already used one.
 */
/**
 * Whether a round's state (its `nonce`) is used for the first time, remembered until `until` (ms):
 * where the retries of one deployment may reach several processes, the store they share says.
 */
export type UseStateOnce = (nonce: string, until: number, ctx: ServerContext) => boolean | Promise<boolean>;

export function mcpRounds(
  key: string,
  identityOf: (ctx: ServerContext) => string,
  useOnce?: UseStateOnce,
  ttlSeconds = stateTtlSeconds,
): McpRounds {
  const codec = createRequestStateCodec<SealedRound>({
    key,
    ttlSeconds,
    bind: (ctx) => `${identityOf(ctx)}\0${ctx.mcpReq.method}`,
  });
  // The nonces used within their time to live, in this process: a state is good for one retry.
  const used = new Map<string, number>();
  const refuse = (why: string) => new ProtocolError(-32602, `Invalid requestState: ${why}`);

  return {
    async verify(state, ctx) {
      const sealed = await codec.verify(state, ctx);
      const now = Date.now();
      const until = now + ttlSeconds * 1000;
      for (const [nonce, lapses] of used) if (lapses < now) used.delete(nonce);
      const first = useOnce ? await useOnce(sealed.nonce, until, ctx) : !used.has(sealed.nonce);
      if (!first) throw refuse('it was used already; send the state of the latest round once');
      if (!useOnce) used.set(sealed.nonce, until);
      return sealed;
    },
    async resume(ctx, tool, args) {
      const sealed = ctx.mcpReq.requestState<SealedRound>();
      const responses = inputResponsesOf(ctx);
      if (!sealed) {
        // A first round, or a retry without state: what the client answered counts for the keys
        // the tool asks (core checks each answer against its ask), never as an approval, which
        // only the round that asked for it may carry back.
        delete responses[approvalKey];
        return { toolCallId: randomId('call_'), answers: responses };
      }
      if (sealed.tool !== tool) throw refuse(`it was made for the tool "${sealed.tool}"`);
      if (sealed.argsHash !== (await argsHash(args))) throw refuse('the arguments changed since it was made');
      const answers = { ...sealed.answers };
      for (const key of sealed.open) if (Object.hasOwn(responses, key)) answers[key] = responses[key]!;
      return { toolCallId: sealed.toolCallId, answers };
    },
    async inputRequired(ctx, call, asks) {
      const inputRequests = inputRequestsOf(asks);
      const sealed: SealedRound = {
        v: 1,
        tool: call.tool,
        toolCallId: call.toolCallId,
        argsHash: await argsHash(call.args),
        answers: call.answers,
        open: asks.map((ask) => ask.key),
        nonce: randomId('round_'),
      };
      return inputRequired({ inputRequests, requestState: await codec.mint(sealed, ctx) });
    },
  };
}

/** Open asks as MCP input requests, each under its key: a form as a form, a page as a URL request. */
export function inputRequestsOf(asks: readonly OpenAsk[]): InputRequests {
  const requests: InputRequests = {};
  for (const ask of asks) {
    requests[ask.key] =
      ask.url === undefined
        ? inputRequired.elicit({ message: ask.message, requestedSchema: ask.schema as FormSchema })
        : inputRequired.elicitUrl({ message: ask.message, url: ask.url });
  }
  return requests;
}

/** The retry's answers as core's: see {@link answersOf}. */
function inputResponsesOf(ctx: ServerContext): Record<string, AskAnswer> {
  return answersOf(ctx.mcpReq.inputResponses);
}

/**
 * A client's `inputResponses` as core's answers: `{ action, content }` → `{ action, values }`;
 * anything else is no answer.
 */
export function answersOf(given: unknown): Record<string, AskAnswer> {
  const answers: Record<string, AskAnswer> = {};
  if (!given || typeof given !== 'object') return answers;
  for (const [key, value] of Object.entries(given)) {
    const result = value as Partial<ElicitResult> | null;
    if (result?.action === 'accept') {
      const content = result.content;
      answers[key] =
        content && typeof content === 'object'
          ? { action: 'accept', values: content as never }
          : { action: 'accept' };
    } else if (result?.action === 'decline' || result?.action === 'cancel')
      answers[key] = { action: result.action };
  }
  return answers;
}

/** The approval port of a round: {@link roundApproval}. */
export interface RoundApproval extends ApprovalPort {
  /** The approval this round asked the person for, when the port answered `'pending'`. */
  readonly asked: OpenAsk | undefined;
}

/**
 * The approval of a call over MCP 2026, as one more ask of its round (key `toolctx.approval`, the approval
 * form): the answer a retry brings decides it (accept approves, decline or cancel denies, with the
 * person's note as the reason); without one the port answers `'pending'` and the door asks in the
 * round's `input_required`. The runtime binds the decision to this call and its arguments with its
 * one-use token, as for any approval, and the round's state binds the arguments it was asked for.
 */
export function roundApproval(
  tool: AnyTool | undefined,
  toolCallId: string,
  answers: Readonly<Record<string, AskAnswer>>,
): RoundApproval {
  let asked: OpenAsk | undefined;
  return {
    get asked() {
      return asked;
    },
    async request(request) {
      const ask = approvalAsk(tool, request, toolCallId);
      const answer = Object.hasOwn(answers, approvalKey) ? answers[approvalKey] : undefined;
      const decision = answer && approvalDecisionOf(ask, answer);
      if (!decision) asked = ask;
      return decision ?? 'pending';
    },
  };
}

/** The approval of a call as an ask under {@link approvalKey}: the tool's words, the approval form. */
export function approvalAsk(
  tool: AnyTool | undefined,
  request: { approvalId: string; toolName: string; args: unknown },
  toolCallId: string,
): OpenAsk {
  const now = Date.now();
  return {
    askId: request.approvalId,
    toolCallId,
    tool: request.toolName,
    key: approvalKey,
    message: tool ? approvalMessage(tool, request.args) : `Approve ${request.toolName}?`,
    schema: approvalForm,
    askedAt: now,
    expiresAt: now + stateTtlSeconds * 1000,
  };
}

/**
 * The decision a person's answer to an approval ask makes: accept approves (their note as the
 * reason), decline or cancel denies; an answer that does not fit the form decides nothing.
 */
export function approvalDecisionOf(ask: OpenAsk, answer: AskAnswer): ApprovalDecision | undefined {
  if (!checkAnswer(ask, answer).ok) return undefined;
  const note = answer.action === 'accept' ? answer.values?.reason : undefined;
  const reason = typeof note === 'string' && note.trim() !== '' ? { reason: note.trim() } : {};
  if (answer.action === 'accept') return { approved: true, ...reason };
  return {
    approved: false,
    reason: answer.action === 'decline' ? 'the person declined' : 'the person cancelled',
  };
}

/** The key of a round's approval among its asks. */
export const approvalKey = 'toolctx.approval';
