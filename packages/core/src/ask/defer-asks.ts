// The asks of a door that cannot reach the person while a call runs, but can hand the asks back
// and call again with the answers: MCP 2026's `input_required` round trip. The call is run again
// from the start each round; the answers it already has let it past the asks it made before.
import { ToolctxError } from '../errors.js';
import type { AskAnswer, AskUser, OpenAsk } from './ask.js';
import { checkAnswer } from './check-ask.js';

/** An `askUser` that defers, and the asks it deferred: see {@link deferAsks}. */
export interface DeferredAsks extends AskUser {
  /** The asks the call made that `answers` had no fitting answer for, in the order made. */
  readonly deferred: readonly OpenAsk[];
}

/**
 * Answers a call's asks (`callOnce({ askUser })`) from `answers`, by each ask's `key`, where the
 * answer there fits the ask; any other ask ends the call as `input-required`, with the keys of
 * the asks made in the same turn in `details.asks` and the asks themselves in `deferred` (so a
 * URL ask's page, which may be an authorization link, is in no error or event). The tool cannot
 * catch it: its `ctx.signal` fires, its cleanups run. Call it again, with the same `toolCallId`,
 * and answers under those keys: the tool runs from the start, so what it did before its first ask
 * it does again ("ask before you act").
 *
 * @example
 * ```ts
 * import type { AskAnswer, Runtime } from '@toolctx/core';
 * import { deferAsks } from '@toolctx/core/mcp';
 * declare const runtime: Runtime;
 * declare const answers: Record<string, AskAnswer>; // from the client's last round
 * const askUser = deferAsks(answers);
 * const result = await runtime.callOnce({ tool: 'transfer', args: {}, toolCallId: 'call_1', askUser });
 * if (!result.ok && result.error.kind === 'input-required') console.log(askUser.deferred); // to put to the person
 * ```
 */
export function deferAsks(answers: Readonly<Record<string, AskAnswer>> = {}): DeferredAsks {
  const deferred: OpenAsk[] = [];
  let turn: Array<(error: ToolctxError) => void> | undefined;
  const askUser = (ask: OpenAsk, signal: AbortSignal): Promise<AskAnswer> => {
    const given = Object.hasOwn(answers, ask.key) ? answers[ask.key] : undefined;
    if (given && checkAnswer(ask, given).ok) return Promise.resolve(given);
    deferred.push(ask);
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      // The asks made together (Promise.all) are deferred together, after this turn.
      if (!turn) {
        const waiting: Array<(error: ToolctxError) => void> = [];
        turn = waiting;
        setTimeout(() => {
          turn = undefined;
          const keys = deferred.map((open) => open.key);
          const error = new ToolctxError(
            'input-required',
            `"${ask.tool}" needs its user's answer to ${keys.map((key) => JSON.stringify(key)).join(', ')} before it can go on: ask them, then call it again with the same toolCallId and the answers under these keys.`,
            { details: { asks: keys } },
          );
          for (const fail of waiting) fail(error);
        }, 0);
      }
      turn.push(reject);
    });
  };
  return Object.assign(askUser, { deferred });
}
