import type {
  Answered,
  ApprovalDecision,
  AskAnswer,
  CallHandle,
  CallRequest,
  ErrorInfo,
  LinkedResult,
  OpenApproval,
  OpenAsk,
  ToolEvent,
  ToolResult,
} from '@toolctx/core';
import { RemoteRunError } from './remote-run-error.js';

/** A call to a remote run: core's `CallRequest`, and whether it outlives the page. */
export interface RemoteCallRequest extends CallRequest {
  /**
   * Sent with `Prefer: respond-async`: the server answers `202` at once and the call goes on
   * whatever the page does — a reload, a closed tab, a dropped connection. The promise resolves
   * through the call's handle, as `result(toolCallId)` does; a page that came back picks the call
   * up by its id with `result` or `callStatus`. Without it, a page that goes away cancels the call.
   * `signal` cancels either kind (`POST …/cancel`).
   */
  detached?: boolean;
}

/** The verbs of a remote run besides its events: calls, their handles, cancel and approval. */
export interface RemoteRunCalls {
  /**
   * Calls one tool in the run (`POST /runs/:runId/calls`); its id is made here when the request
   * has none. Resolves to the `ToolResult`, a refusal the server gives as an ErrorInfo (unknown
   * tool, a `conflict` over a known id, a limit) included; rejects with a `RemoteRunError` only
   * when no answer came or the caller is not let in (401, 403).
   */
  call(request: RemoteCallRequest): Promise<ToolResult>;
  /**
   * The result of a call of the run, by id: at once if it has settled (while the page was away,
   * say), else when it settles; `approval-pending` while it waits for a person, as `call`
   * answers. A result its handle keeps as a link (a value over the output budget) is made whole
   * from its artifact (`GET /artifacts/:ref`). A call the run does not know is a `not-found` failure. Waits on the run's events,
   * read from the last one this run delivered.
   */
  result(toolCallId: string): Promise<ToolResult>;
  /** The call's handle (`GET /runs/:runId/calls/:callId`): its status and, once settled, its result; `undefined` for an unknown call. */
  callStatus(toolCallId: string): Promise<CallHandle | undefined>;
  /** The handles of the run's calls not settled yet (`GET /runs/:runId/calls`). */
  openCalls(): Promise<CallHandle[]>;
  /** Cancels a running call, or one waiting for approval (`POST …/cancel`); whether there was one. */
  cancel(toolCallId: string): Promise<boolean>;
  /** Decides an approval a call of the run waits for (`POST /approvals/:id`): the resumed call's result. */
  resume(approvalId: string, decision: ApprovalDecision): Promise<ToolResult>;
  /** The asks of the run's calls waiting for their answer (`GET /runs/:runId/asks`). */
  asks(): Promise<OpenAsk[]>;
  /**
   * What the run's calls waiting for approval would run with (`GET /runs/:runId/approvals`), the
   * oldest first: to show the person deciding before `resume`.
   */
  pendingApprovals(): Promise<OpenApproval[]>;
  /**
   * Answers a call's ask (`POST /runs/:runId/asks/:askId`), as `run.answer` does: taken, or not —
   * `invalid` (the values do not fit; the ask stays open) or `unknown` (no open ask by that id).
   */
  answer(askId: string, answer: AskAnswer): Promise<Answered>;
}

/** How the verbs reach the server; supplied by `connectRun`. */
export interface RunCallsWire {
  /** The server's base URL, without a trailing slash. */
  base: string;
  runId: string;
  fetch: typeof fetch;
  headers: HeadersInit | undefined;
  /** The run's events after `seq`, until `run.finished` or `signal`. */
  events(after: number, signal: AbortSignal): AsyncIterable<ToolEvent>;
  /** The last `seq` this run's readers delivered. */
  seen(): number;
}

/** The events after which a call's handle has news: it settled, or it waits for a person. */
const news = new Set(['tool.finished', 'tool.failed', 'tool.pending']);

/**
 * Reads an answer's body to its end, for one whose body is of no use: a body cancelled before
 * its end shows in a page's network log as a failed request.
 */
const drain = (response: Response) => response.text().catch(() => '');

/** Makes a remote run's verbs. */
export function createRunCalls(wire: RunCallsWire): RemoteRunCalls {
  const runPath = `${wire.base}/runs/${encodeURIComponent(wire.runId)}`;
  const callPath = (id: string) => `${runPath}/calls/${encodeURIComponent(id)}`;
  const send = async (url: string, init: RequestInit = {}, prefer?: string) => {
    const headers = new Headers(wire.headers);
    headers.set('accept', 'application/json');
    if (init.body) headers.set('content-type', 'application/json');
    if (prefer) headers.set('prefer', prefer);
    try {
      return await wire.fetch(url, { ...init, headers, cache: 'no-store' });
    } catch (cause) {
      throw new RemoteRunError('unreachable', `The run's server could not be reached (${url}).`, { cause });
    }
  };
  const refused = async (response: Response): Promise<never> => {
    await drain(response);
    throw new RemoteRunError('http-status', `The run's server answered ${response.status}.`, {
      status: response.status,
    });
  };
  /** A result as the server sent it: the ToolResult, or its refusal as a failure. */
  const answer = async (response: Response): Promise<ToolResult> => {
    if (response.status === 401 || response.status === 403) return refused(response);
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      // The answer began and broke off: a dropped connection (or the page's own hang-up).
      throw new RemoteRunError('unreachable', "The run's server stopped answering mid-answer.", { cause });
    }
    const body: unknown = parseJson(text);
    if (response.ok && isResult(body)) return body;
    if (!response.ok && isErrorInfo(body)) return { ok: false, error: body };
    throw new RemoteRunError(
      'http-status',
      `The run's server answered ${response.status} without a result.`,
      {
        status: response.status,
      },
    );
  };

  // Calls waiting for news, woken by one event stream the run shares: a stream per waiting call
  // would be opened and aborted for each, which a page's network log shows as failed requests.
  const waiters = new Set<() => void>();
  let listening = false;
  let finished = false;
  const listen = () => {
    if (listening || finished) return;
    listening = true;
    void (async () => {
      try {
        for await (const event of wire.events(wire.seen(), new AbortController().signal)) {
          if (event.type === 'run.finished') finished = true;
          if (finished || (event.callId && news.has(event.type))) for (const wake of [...waiters]) wake();
          if (finished) break;
        }
      } catch {
        // The stream broke off: the waiters read their handles once more, below.
      } finally {
        listening = false;
        for (const wake of [...waiters]) wake();
      }
    })();
  };

  const calls: RemoteRunCalls = {
    async call({ signal, detached, ...request }) {
      const toolCallId = request.toolCallId ?? `call_${crypto.randomUUID()}`;
      const body = JSON.stringify({ tool: request.tool, args: request.args, toolCallId });
      const response = await send(
        `${runPath}/calls`,
        { method: 'POST', body },
        detached ? 'respond-async' : '',
      );
      // Admitted (the answer has begun): the signal cancels the call by its id, wherever it runs,
      // and the server's answer is then the cancelled call's result.
      const onAbort = () => void calls.cancel(toolCallId).catch(() => {});
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (response.status !== 202) return await answer(response);
        await response.text(); // the handle, read whole: a body cancelled mid-way is a failed request
        return await calls.result(toolCallId);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async result(toolCallId) {
      // Woken by the run's events after what it has delivered; the handle read after subscribing
      // covers what happened before. One stream serves every waiting call of the run.
      listen();
      for (;;) {
        let wake!: () => void;
        const woken = new Promise<void>((resolve) => {
          wake = resolve;
        });
        waiters.add(wake);
        try {
          const ended = finished || !listening;
          const settled = await outcome(toolCallId);
          if (settled) return settled;
          // The events ended (the run ended, or the stream broke off): the handle had the last word.
          if (ended) return { ok: false, error: unsettled(toolCallId) };
          await woken;
        } finally {
          waiters.delete(wake);
        }
      }
    },
    async callStatus(toolCallId) {
      const response = await send(callPath(toolCallId));
      if (response.status === 404) {
        await drain(response);
        return undefined;
      }
      return response.ok ? ((await response.json()) as CallHandle) : refused(response);
    },
    async openCalls() {
      const response = await send(`${runPath}/calls`);
      return response.ok ? ((await response.json()) as { calls: CallHandle[] }).calls : refused(response);
    },
    async cancel(toolCallId) {
      const response = await send(`${callPath(toolCallId)}/cancel`, { method: 'POST' });
      await drain(response);
      if (response.ok || response.status === 404) return response.ok;
      return refused(response);
    },
    async asks() {
      const response = await send(`${runPath}/asks`);
      return response.ok ? ((await response.json()) as { asks: OpenAsk[] }).asks : refused(response);
    },
    async pendingApprovals() {
      const response = await send(`${runPath}/approvals`);
      return response.ok
        ? ((await response.json()) as { approvals: OpenApproval[] }).approvals
        : refused(response);
    },
    async answer(askId, given) {
      const url = `${runPath}/asks/${encodeURIComponent(askId)}`;
      const response = await send(url, { method: 'POST', body: JSON.stringify(given) });
      if (response.status === 401 || response.status === 403) return refused(response);
      const body = parseJson(await response.text().catch(() => ''));
      if (response.ok) return { taken: true, toolCallId: (body as { toolCallId: string }).toolCallId };
      if (!isErrorInfo(body)) return refused(response);
      return { taken: false, reason: response.status === 400 ? 'invalid' : 'unknown', error: body };
    },
    async resume(approvalId, decision) {
      const body = JSON.stringify({ runId: wire.runId, ...decision });
      return answer(
        await send(`${wire.base}/approvals/${encodeURIComponent(approvalId)}`, { method: 'POST', body }),
      );
    },
  };

  /** What a call has come to, from its handle: its result, `approval-pending`, or nothing yet. */
  async function outcome(toolCallId: string): Promise<ToolResult | undefined> {
    const handle = await calls.callStatus(toolCallId);
    if (!handle) return { ok: false, error: unknownCall(toolCallId) };
    if (handle.result) return 'linked' in handle.result ? whole(handle.result) : handle.result;
    if (handle.status === 'input_required' && handle.approvalId) {
      return { ok: false, error: approvalPending(handle.tool, handle.approvalId, toolCallId, wire.runId) };
    }
    return undefined;
  }
  /** A result its handle keeps as a link, made whole again from the artifact holding its value. */
  async function whole({ content, spilled }: LinkedResult): Promise<ToolResult> {
    const response = await send(`${wire.base}/artifacts/${encodeURIComponent(spilled.ref)}`);
    if (response.status === 404) {
      await drain(response);
      return { ok: false, error: resultGone(spilled.ref) };
    }
    if (!response.ok) return refused(response);
    const json = response.headers.get('content-type')?.startsWith('application/json') === true;
    const text = await response.text();
    return { ok: true, value: json ? JSON.parse(text) : text, content, spilled };
  }
  return calls;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorInfo(value: unknown): value is ErrorInfo {
  const info = value as ErrorInfo | undefined;
  return typeof info?.kind === 'string' && typeof info.message === 'string';
}

function isResult(value: unknown): value is ToolResult {
  const result = value as ToolResult | undefined;
  return result?.ok === true || (result?.ok === false && isErrorInfo(result.error));
}

function unknownCall(toolCallId: string): ErrorInfo {
  return {
    kind: 'not-found',
    message: `The run has no call ${JSON.stringify(toolCallId)}: check the id, or the run's retention window has passed.`,
    retryable: false,
  };
}

function resultGone(ref: string): ErrorInfo {
  return {
    kind: 'not-found',
    message: `The call's result was kept as artifact ${ref}, which the artifact store no longer has (it expired, or was deleted).`,
    retryable: false,
  };
}

function unsettled(toolCallId: string): ErrorInfo {
  return {
    kind: 'aborted',
    message: `Stopped waiting for call ${JSON.stringify(toolCallId)} before it settled; it may still be running (see callStatus).`,
    retryable: true,
  };
}

/** What a call answers while it waits for a person, as core words it. */
function approvalPending(tool: string, approvalId: string, callId: string, runId: string): ErrorInfo {
  return {
    kind: 'approval-pending',
    message:
      `\`${tool}\` is waiting for approval (${approvalId}). ` +
      'The host resumes it with run.resume(approvalId, decision).',
    retryable: false,
    details: { approvalId, callId, toolName: tool, runId },
  };
}
