// A call's questions to its user, kept in the call's record: loaded on a run's first ask or answer
// (most runs never ask). The record is the one owner of an ask: a restarted host finds it there,
// still open, and the answers given so far, which a call run again gets back without asking twice.
import type { Answered, AskAnswer, AskRequest, AskUser, OpenAsk } from '../ask/ask.js';
import { type CheckedAsk, checkAnswer, checkAsk } from '../ask/check-ask.js';
import { callSettled } from '../context/settled-guard.js';
import { type ErrorInfo, ToolctxError, toErrorInfo } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import { randomId } from '../random-id.js';
import type { CallRecord, CallStore } from './call-book.js';
import type { CallFacts, RunFacts } from './run-facts.js';

/** What a run lends its asks: the records, the log, and the asks waiting in this process. */
export interface AskingRun {
  readonly book: CallStore | undefined;
  readonly log: EventLog;
  readonly askUser: AskUser | undefined;
  readonly canAsk: boolean;
  /** The doors's name, for the error of a door that cannot ask. */
  readonly doorName: string;
  /** Wakes each ask waiting in this process, by its id. */
  readonly askWaiters: Map<string, (answer: AskAnswer) => void>;
}

/**
 * Puts a call's ask to its user: through the run's records (answered by `run.answer`), or the
 * door's `askUser` for the frame of one call. `key` names it among the call's asks (see
 * `AskBase.key`). Rejects when `signal` fires; the ask is then withdrawn.
 */
export function ask(
  run: AskingRun,
  call: CallFacts,
  key: string,
  request: CheckedAsk,
  signal: AbortSignal,
): Promise<AskAnswer> {
  const record = run.canAsk ? run.book?.get(call.toolCallId) : undefined;
  if (!record) {
    if (!run.askUser) return Promise.reject(noOneToAsk(call.toolName, run.doorName));
    return run.askUser(openAsk(randomId('ask_'), key, call, request), signal);
  }
  // A call run again (a retry, or after its host restarted) gets the answers it already had; an
  // own key only, so a tool's key `constructor` is not Object's.
  const { answers } = record;
  if (answers && Object.hasOwn(answers, key)) return Promise.resolve(answers[key]!);
  const { book, log } = run;
  record.asks ??= [];
  const { asks } = record;
  const again = asks.find((open) => open.key === key);
  // Open in this process already: the same key asked twice at once, which one answer cannot settle.
  if (again && run.askWaiters.has(again.askId)) {
    return Promise.reject(
      new ToolctxError(
        'conflict',
        `"${call.toolName}" asked under the key ${JSON.stringify(key)} while an ask under that key was still open: give each ask of a call its own key.`,
      ),
    );
  }
  const open = again ?? openAsk(randomId('ask_'), key, call, request);
  if (!again) asks.push(open);
  record.status = 'input_required';
  record.updatedAt = Date.now();
  book!.put(record);
  if (!again) log.emit('ask.requested', askedData(open), call.toolCallId, call.parentId);
  const { askId } = open;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      run.askWaiters.delete(askId);
      // Withdrawn: the window passed, or the call was cancelled. A run again gets `cancel` too.
      settleAsk(run, record, askId, { action: 'cancel' });
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    run.askWaiters.set(askId, (answer) => {
      signal.removeEventListener('abort', onAbort);
      resolve(answer);
    });
  });
}

/** The attempt an ask belongs to (attempt.ts), as far as the ask needs. */
interface AskingAttempt {
  readonly settled: boolean;
  readonly signal: AbortSignal;
  askCount: number;
  asking: number;
  resumeTimeout: (() => void) | undefined;
  holdTimeout(): () => void;
  abort(error: ErrorInfo): void;
}

/**
 * `ctx.ask`, and a credential's sign-in: checks the ask, holds the tool's timeout while any ask
 * is open within its window, and checks the answer before the tool sees it. `key` names an ask
 * that is not one of the tool's own (a credential's); else the ask's own `key`, or the attempt's
 * next number. An ask a door defers (`input-required`) ends the attempt: the tool cannot catch it.
 */
export async function askFrom(
  attempt: AskingAttempt,
  run: RunFacts,
  call: CallFacts,
  request: AskRequest,
  key?: string,
): Promise<AskAnswer> {
  const checked = checkAsk(call.toolName, request);
  if (attempt.settled) throw callSettled(call.toolName, 'ctx.ask', undefined);
  key ??= checked.key ?? String(attempt.askCount++);
  if (attempt.asking++ === 0) attempt.resumeTimeout = attempt.holdTimeout();
  // The ask's window, or the call's end, withdraws it.
  const window = new AbortController();
  const expired = () =>
    window.abort(
      new ToolctxError('timeout', `"${call.toolName}"'s ask was not answered within ${checked.windowMs} ms.`),
    );
  const timer = setTimeout(expired, checked.windowMs);
  const { signal } = attempt;
  const onEnd = () => window.abort(signal.reason);
  signal.addEventListener('abort', onEnd, { once: true });
  try {
    const answer = await run.ask(call, key, checked, window.signal);
    const fits = checkAnswer(checked, answer);
    if (!fits.ok)
      throw new ToolctxError(fits.error.kind, fits.error.message, { details: fits.error.details });
    return fits.answer;
  } catch (thrown) {
    if (!signal.aborted && window.signal.aborted) return { action: 'cancel' };
    const error = toErrorInfo(thrown);
    if (error.kind === 'input-required') attempt.abort(error);
    throw thrown;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onEnd);
    if (--attempt.asking === 0) attempt.resumeTimeout?.();
  }
}

/** Takes a person's answer to an open ask of the run: checked once, accepted once. */
export function answerAsk(run: AskingRun, askId: string, answer: unknown): Answered {
  let record: CallRecord | undefined;
  let open: OpenAsk | undefined;
  for (const candidate of run.book?.open() ?? []) {
    open = candidate.asks?.find((asked) => asked.askId === askId);
    if (!open) continue;
    record = candidate;
    break;
  }
  if (!record || !open) {
    return {
      taken: false,
      reason: 'unknown',
      error: {
        kind: 'not-found',
        message: `The run has no open ask ${JSON.stringify(askId)}: it was answered already, withdrawn (its window passed or its call ended), or is another run's.`,
        retryable: false,
      },
    };
  }
  const checked = checkAnswer(open, answer);
  if (!checked.ok) {
    const error = {
      ...checked.error,
      message: `${checked.error.message} The ask is still open: answer it again.`,
    };
    return { taken: false, reason: 'invalid', error };
  }
  const { toolCallId } = record;
  settleAsk(run, record, askId, checked.answer);
  const wake = run.askWaiters.get(askId);
  run.askWaiters.delete(askId);
  wake?.(checked.answer);
  return { taken: true, toolCallId };
}

/** Files the answer with the call under the ask's key, closes the ask and says so in the log. */
function settleAsk(run: AskingRun, record: CallRecord, askId: string, answer: AskAnswer): void {
  const at = record.asks?.findIndex((open) => open.askId === askId) ?? -1;
  if (at < 0) return;
  const [ask] = record.asks!.splice(at, 1);
  record.answers = { ...record.answers, [ask!.key]: answer };
  if (record.asks!.length === 0) {
    delete record.asks;
    record.status = 'working';
  }
  record.updatedAt = Date.now();
  run.book!.put(record);
  const data = { tool: record.tool, askId, action: answer.action };
  run.log.emit('ask.answered', data, record.toolCallId, record.parentId);
}

function openAsk(askId: string, key: string, call: CallFacts, request: CheckedAsk): OpenAsk {
  const askedAt = Date.now();
  const open: OpenAsk = {
    askId,
    toolCallId: call.toolCallId,
    tool: call.toolName,
    key,
    message: request.message,
    askedAt,
    expiresAt: askedAt + request.windowMs,
  };
  if ('url' in request) open.url = request.url;
  else open.schema = request.schema;
  return open;
}

function askedData({ tool, askId, message, schema, expiresAt }: OpenAsk) {
  return schema ? { tool, askId, message, schema, expiresAt } : { tool, askId, message, expiresAt };
}

function noOneToAsk(toolName: string, doorName: string): ToolctxError {
  return new ToolctxError(
    'unsupported',
    `"${toolName}" asked its user, but this call has no one to ask: its run was started with canAsk: false, or it runs outside a run at the ${doorName} door (over MCP, only a client that declared elicitation can be asked). Handle the refusal in the tool, or call it in a run a person can answer.`,
    { details: { door: doorName } },
  );
}
