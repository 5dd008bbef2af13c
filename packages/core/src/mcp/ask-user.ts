// A tool's `ctx.ask` over MCP 2025-11-25: the door's `askUser`, which core calls for each ask of
// an MCP call, puts it to the person as `elicitation/create` on the call's own stream.
import type { ElicitResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { AskAnswer, AskUser, OpenAsk } from '../ask/ask.js';
import { ToolctxError } from '../errors.js';
import {
  canElicit,
  type DeclaredElicitation,
  type ElicitParams,
  elicit,
  unansweredBecause,
} from './elicit.js';

/**
 * How long past its window an ask's request may wait in the SDK: the window's end aborts the
 * ask (core answers the tool `cancel`), and the SDK's own timeout must not beat it to it.
 */
const windowSlackMs = 1_000;

/**
 * The `askUser` of one `tools/call` request: a form ask goes as a form (`requestedSchema` is the
 * ask's schema), a URL ask as URL mode with the ask's id as its `elicitationId`; the client's
 * `{ action, content }` comes back as `{ action, values: content }`, for core to check against the
 * ask. A URL ask the person accepted is handed to `onPageAccepted`, for its completion
 * notification. An ask the client did not declare the mode for rejects as `unsupported`, naming
 * what the client must declare; so does one the client answers with an error. Core aborts
 * `signal` when the call is cancelled or the ask's window passes: the request is withdrawn
 * (`notifications/cancelled`) and the ask rejects with `signal.reason`.
 */
export function mcpAskUser(
  server: Server,
  send: ServerContext['mcpReq']['send'],
  declared: DeclaredElicitation,
  onPageAccepted: (elicitationId: string) => void,
): AskUser {
  return async (ask: OpenAsk, signal: AbortSignal): Promise<AskAnswer> => {
    const page = ask.url !== undefined;
    if (!canElicit(server, page ? 'url' : 'form')) throw cannotAsk(server, ask, page);
    const params: ElicitParams = page
      ? { mode: 'url', message: ask.message, url: ask.url!, elicitationId: ask.askId }
      : { mode: 'form', message: ask.message, requestedSchema: ask.schema! };
    const timeout = Math.max(ask.expiresAt - Date.now(), 0) + windowSlackMs;
    let answer: ElicitResult;
    try {
      answer = await elicit({ send, signal }, declared, params, timeout);
    } catch (thrown) {
      if (signal.aborted) throw signal.reason;
      throw unanswered(ask, thrown);
    }
    if (answer.action !== 'accept') return { action: answer.action };
    if (page) {
      onPageAccepted(ask.askId);
      return { action: 'accept' };
    }
    return { action: 'accept', values: answer.content ?? {} };
  };
}

function cannotAsk(server: Server, ask: OpenAsk, page: boolean): ToolctxError {
  const needs = page ? 'elicitation.url' : 'elicitation';
  const what = page ? 'to open a page' : 'a question';
  const why =
    server.getClientCapabilities() === undefined
      ? 'this MCP server never saw the client initialize (stateless HTTP keeps no session to remember its capabilities), so no one can be asked: serve MCP 2025-11-25 with sessions, or give the 2026-07-28 door a requestStateKey (mountMcp: requestStateKey: (env) => env.MCP_STATE_KEY, from `wrangler secret put MCP_STATE_KEY`)'
      : page
        ? 'this MCP client did not declare URL elicitation: a client that can send its user to a page declares capabilities.elicitation.url when it initializes'
        : 'this MCP client did not declare elicitation: a client that can show its user a form declares capabilities.elicitation (or elicitation.form) when it initializes';
  return new ToolctxError('unsupported', `"${ask.tool}" asked its user ${what}, but ${why}.`, {
    details: { door: 'mcp', needs },
  });
}

function unanswered(ask: OpenAsk, thrown: unknown): ToolctxError {
  switch (unansweredBecause(thrown)) {
    case 'malformed':
      return new ToolctxError(
        'invalid-argument',
        `The MCP client's answer to "${ask.tool}"'s ask is not an elicitation result: { action: "accept" | "decline" | "cancel", content? } whose values are text, numbers, booleans or lists of text.`,
      );
    case 'closed':
      return new ToolctxError('aborted', `The MCP connection closed while "${ask.tool}"'s ask was open.`);
    case 'timeout':
      return new ToolctxError('timeout', `The MCP client did not answer "${ask.tool}"'s ask in time.`);
    case 'refused':
      return new ToolctxError(
        'unsupported',
        `The MCP client answered "${ask.tool}"'s ask with an error: it could not ask its user.`,
        { details: { door: 'mcp', code: (thrown as { code: number }).code } },
      );
  }
}
