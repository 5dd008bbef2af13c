// The one way serveMcp puts a question to the person behind an MCP client (2025-11-25's
// `elicitation/create`): approvals (elicit-approval.ts) and a tool's asks (ask-user.ts) both send
// theirs through here, so mode, capability and stream are decided in one place.
import {
  type ElicitRequest,
  type ElicitResult,
  SdkError,
  SdkErrorCode,
  type Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import type { AskSchema } from '../ask/ask.js';

/** The `tools/call` request a question is about. */
export interface ElicitingCall {
  /**
   * The call's own `ctx.mcpReq.send`: a request sent through it is related to the call, so the
   * question travels on the call's response stream.
   */
  send: ServerContext['mcpReq']['send'];
  /** Withdraws the question (the SDK sends `notifications/cancelled` for it) when it fires. */
  signal: AbortSignal;
}

/**
 * What the client wrote for `elicitation` when it initialized, before the SDK read `{}` as
 * `{ form: {} }`: a client that declared it bare may predate modes, and is sent forms without one.
 */
export interface DeclaredElicitation {
  bare: boolean;
}

/**
 * A question: a form (an ask's schema is what a form carries: core checked it when the tool
 * asked), or a page (URL mode, with the id its completion notification names).
 */
export type ElicitParams =
  | { mode: 'form'; message: string; requestedSchema: AskSchema }
  | { mode: 'url'; message: string; url: string; elicitationId: string };

/** Whether the client declared the elicitation mode. */
export function canElicit(server: Server, mode: 'form' | 'url'): boolean {
  return server.getClientCapabilities()?.elicitation?.[mode] !== undefined;
}

/**
 * Notes, from the `initialize` request as the client sent it, whether it declared elicitation
 * bare. Called once the server is connected to `transport` (the SDK has set its `onmessage`).
 */
export function noteDeclaredElicitation(transport: Transport, declared: DeclaredElicitation): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'initialize') {
      const capabilities = (message.params as { capabilities?: { elicitation?: unknown } } | undefined)
        ?.capabilities;
      const given = capabilities?.elicitation;
      declared.bare = typeof given === 'object' && given !== null && !('form' in given) && !('url' in given);
    }
    deliver?.(message, extra);
  };
}

/**
 * Sends `elicitation/create` related to the call, so it travels on the call's own response
 * stream, and waits at most `timeout` ms for the answer. A form goes without `mode` to a client
 * that declared elicitation bare (the specification's default is form). The answer is the
 * client's as it came, checked only for its shape: what fits the question is the caller's check
 * (core's, for asks and approvals alike), not the SDK's validator — which is why this sends the
 * request itself rather than through the SDK's `elicitInput`, which validates accepted content
 * and refuses a client that declared elicitation bare. Check {@link canElicit} first.
 */
export function elicit(
  call: ElicitingCall,
  declared: DeclaredElicitation,
  params: ElicitParams,
  timeout: number,
): Promise<ElicitResult> {
  const { mode, ...form } = params;
  const sent = mode === 'form' && declared.bare ? form : params;
  return call.send(
    { method: 'elicitation/create', params: sent as ElicitRequest['params'] },
    { signal: call.signal, timeout },
  );
}

/** Why a question got no answer, once its call's signal is ruled out. */
export type Unanswered = 'timeout' | 'closed' | 'refused' | 'malformed';

/**
 * Sorts what {@link elicit} rejected with: the SDK's timeout, the connection closing, the client
 * answering with a JSON-RPC error, or an answer that is not an elicitation result at all.
 */
export function unansweredBecause(thrown: unknown): Unanswered {
  if (thrown instanceof SdkError && thrown.code === SdkErrorCode.RequestTimeout) return 'timeout';
  if (thrown instanceof SdkError && thrown.code === SdkErrorCode.ConnectionClosed) return 'closed';
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? 'refused' : 'malformed';
}
