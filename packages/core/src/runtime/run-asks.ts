// A call's questions to its user, kept in the call's record: loaded on a run's first ask or answer
// (most runs never ask). The record is the one owner of an ask: a restarted host finds it there,
// still open, and the answers given so far, which a call run again gets back without asking twice.
import type { Answered, AskAnswer, AskRequest, AskUser, OpenAsk } from '../ask/ask.js';
import { type CheckedAsk, checkAnswer, checkAsk } from '../ask/check-ask.js';
import { callSettled } from '../context/settled-guard.js';
import { ToolctxError } from '../errors.js';
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
 * `CallRecord.askKey`). Rejects when `signal` fires; the ask is then withdrawn.
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
    return run.askUser(openAsk(randomId('ask_'), call, request), signal);
  }
  // A call run again (a retry, or after its host restarted) gets the answers it already had.
  const kept = record.answers?.[key];
  if (kept) return Promise.resolve(kept);
  const { book, log } = run;
  const again = record.ask && record.askKey === key ? record.ask : undefined;
  const open = again ?? openAsk(randomId('ask_'), call, request);
  record.ask = open;
  record.askKey = key;
  record.status = 'input_required';
  record.updatedAt = Date.now();
  book!.put(record);
  if (!again) log.emit('ask.requested', askedData(open), call.toolCallId, call.parentId);
  const { askId } = open;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      run.askWaiters.delete(askId);
      // Withdrawn: the window passed, or the call was cancelled. A run again gets `cancel` too.
      if (record.ask?.askId === askId) settleAsk(run, record, { action: 'cancel' });
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
  asking: boolean;
  holdTimeout(): () => void;
}

/**
 * `ctx.ask`, and a credential's sign-in: checks the ask, holds the tool's timeout while it waits
 * within its window, and checks the answer before the tool sees it. `key` names an ask that is
 * not one of the tool's own in order (a credential's); by default it is the attempt's next.
 */
export async function askFrom(
  attempt: AskingAttempt,
  run: RunFacts,
  call: CallFacts,
  request: AskRequest,
  key?: string,
): Promise<AskAnswer> {
  const checked = checkAsk(call.toolName, request);
  if (attempt.asking) {
    throw new ToolctxError(
      'conflict',
      `"${call.toolName}" asked while its last ask was still open: ask one thing at a time (await each ask).`,
    );
  }
  if (attempt.settled) throw callSettled(call.toolName, 'ctx.ask', undefined);
  attempt.asking = true;
  key ??= String(attempt.askCount++);
  const resumeTimeout = attempt.holdTimeout();
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
    throw thrown;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onEnd);
    attempt.asking = false;
    resumeTimeout();
  }
}

/** Takes a person's answer to an open ask of the run: checked once, accepted once. */
export function answerAsk(run: AskingRun, askId: string, answer: unknown): Answered {
  let record: CallRecord | undefined;
  for (const open of run.book?.open() ?? []) {
    if (open.ask?.askId !== askId) continue;
    record = open;
    break;
  }
  if (!record?.ask) {
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
  const checked = checkAnswer(record.ask, answer);
  if (!checked.ok) {
    const error = {
      ...checked.error,
      message: `${checked.error.message} The ask is still open: answer it again.`,
    };
    return { taken: false, reason: 'invalid', error };
  }
  const { toolCallId } = record;
  settleAsk(run, record, checked.answer);
  const wake = run.askWaiters.get(askId);
  run.askWaiters.delete(askId);
  wake?.(checked.answer);
  return { taken: true, toolCallId };
}

/** Files the answer with the call, closes its ask and says so in the log. */
function settleAsk(run: AskingRun, record: CallRecord, answer: AskAnswer): void {
  const { ask, askKey } = record;
  if (!ask || askKey === undefined) return;
  record.answers = { ...record.answers, [askKey]: answer };
  delete record.ask;
  delete record.askKey;
  record.status = 'working';
  record.updatedAt = Date.now();
  run.book!.put(record);
  const data = { tool: record.tool, askId: ask.askId, action: answer.action };
  run.log.emit('ask.answered', data, record.toolCallId, record.parentId);
}

function openAsk(askId: string, call: CallFacts, request: CheckedAsk): OpenAsk {
  const askedAt = Date.now();
  const open: OpenAsk = {
    askId,
    toolCallId: call.toolCallId,
    tool: call.toolName,
    message: request.message,
    askedAt,
    expiresAt: askedAt + request.windowMs,
  };
  if ('url' in request) open.url = request.url;
  else open.schema = request.schema;
  return open;
}

/** What the log says of an ask: never a URL ask's page (an authorization link), which only those who may answer read. */
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
