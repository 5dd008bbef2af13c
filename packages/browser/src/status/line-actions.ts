import type { ApprovalDecision, AskAnswer, OpenApproval, OpenAsk, ToolEvent } from '@toolctx/core';
import { cutMessage, type StatusLine } from '@toolctx/core/status';
import { type AskShown, createAskForm } from './ask-form.js';
import { part } from './part.js';
import type { StatusSource } from './status-source.js';

/**
 * What the widget can do to a call, per line. A source that has `resume(approvalId, decision)`,
 * `answer(askId, answer)` (a local `Run`, a Worker run, a run from `connectRun`), `cancel(callId)`
 * or `pendingApprovals()` offers it on its own; these take precedence.
 */
export interface StatusActions {
  /** Cancels a running call, e.g. by aborting the `signal` its `CallRequest` was given. */
  cancel?(callId: string): unknown;
  /** Decides an approval a call is waiting for (`run.resume`, or a request to the server). */
  resume?(approvalId: string, decision: ApprovalDecision): unknown;
  /**
   * Answers a call's ask from the form on its line (`run.answer`, or a request to the server).
   * When it gives (or resolves with) `{ taken: false, error }`, the error's message is shown in the
   * form, which stays for a corrected answer; a rejection is shown the same way.
   */
  answer?(askId: string, answer: AskAnswer): unknown;
  /**
   * The run's open asks (`run.asks()`): where the page of a URL ask is read, as events do not
   * carry it (it may be an authorization link). Without it a URL ask offers Decline and Cancel only.
   */
  asks?(): readonly OpenAsk[] | PromiseLike<readonly OpenAsk[]>;
  /**
   * The run's pending approvals (`run.pendingApprovals()`): where the arguments a call waiting for
   * approval would run with are read when `details` gives none, as events do not carry them (a
   * page after a reload, a call another page made). Approve is held (`aria-disabled`, presses
   * ignored) until they are shown, or the run could not say.
   */
  pendingApprovals?(): readonly OpenApproval[] | PromiseLike<readonly OpenApproval[]>;
  /**
   * What the page knows of a call waiting for approval, for the words beside Approve and Deny:
   * the tool's title and the arguments it was called with (events carry neither). A few argument
   * values are shown, cut short; without arguments from it or from `pendingApprovals`, the tool's
   * title or name alone.
   */
  details?(call: { readonly callId: string; readonly tool: string }): CallDetails | undefined;
}

/** A call's title and arguments, as the page holds them. */
export interface CallDetails {
  title?: string;
  args?: unknown;
}

type Can = Omit<StatusActions, 'details'>;

/** The abilities of `source`, with `given` filling in what it lacks; `false` turns actions off. */
function abilities(source: StatusSource, given: StatusActions | false | undefined): Can {
  if (given === false) return {};
  // Only a run-like source is asked: a ReadableStream is an async iterable whose `cancel` ends it.
  const own = ('subscribe' in source || 'events' in source ? source : {}) as Can;
  const can: Can = {};
  for (const name of ['cancel', 'resume', 'answer', 'asks', 'pendingApprovals'] as const) {
    // Called on the object it came from, the page's actions first.
    const from = typeof given?.[name] === 'function' ? given : own;
    const act = from[name] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof act === 'function') can[name] = ((...args: unknown[]) => act.apply(from, args)) as never;
  }
  return can;
}

let texts = 0;
const MAX_VALUE = 24;
const MAX_ARGS = 3;

/** One argument value in words: strings quoted and cut, lists counted, objects elided; no JSON. */
function word(value: unknown): string {
  if (typeof value === 'string') {
    const chars = [...value.replace(/\s+/g, ' ').trim()];
    return `“${chars.length > MAX_VALUE ? `${chars.slice(0, MAX_VALUE - 1).join('')}…` : chars.join('')}”`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  return value === null || value === undefined ? '—' : '…';
}

/**
 * The short description of what a person is asked to approve: the tool's title (or name) and up
 * to three of its arguments, each cut short — `Count words: text “The quick brown fox…”, limit 3`.
 */
export function describeAsk(tool: string, details: CallDetails | undefined): string {
  const title = details?.title?.trim() || tool;
  const args = details?.args;
  if (!args || typeof args !== 'object' || Array.isArray(args)) return title;
  const entries = Object.entries(args).filter(([, value]) => value !== undefined);
  if (!entries.length) return title;
  const shown = entries.slice(0, MAX_ARGS).map(([key, value]) => `${key} ${word(value)}`);
  if (entries.length > MAX_ARGS) shown.push(`+${entries.length - MAX_ARGS} more`);
  return `${title}: ${shown.join(', ')}`;
}

/** The per-line controls of one widget. */
export interface LineActions {
  /** Reads what an event says about a call's approval or ask; called for every event, before the model. */
  see(event: ToolEvent): void;
  /** Shows the controls `line` has now in `row`, after the row was written and placed. */
  render(row: HTMLElement, line: StatusLine): void;
  /** Moves focus that a removed control had; called once a frame's writes are done. */
  refocus(): void;
}

/**
 * Makes the controls: Cancel on a running call, Approve and Deny with a description on a call
 * waiting for approval, each a `<button>` named with its tool, and the form of a call's open ask
 * (`maxMessageLength` says whether the line showed the ask's message whole). When a control that has focus goes
 * away, focus moves to its line (focusable, not in the tab order), or to `fallback` when the line
 * has moved out of sight, never to `<body>`. What comes later (the arguments of an approval, read
 * from the run) is written in a frame of the widget's: `redraw(callId)` asks for one.
 */
export function createLineActions(
  doc: Document,
  source: StatusSource,
  given: StatusActions | false | undefined,
  fallback: () => HTMLElement | undefined,
  redraw: (callId: string) => void,
  maxMessageLength = 120,
): LineActions {
  const can = abilities(source, given);
  const details = given ? given.details : undefined;
  const approvals = new Map<string, string>(); // callId → the approval it waits for
  const asks = new Map<string, AskShown>(); // callId → the ask it waits on
  const shown = new WeakMap<HTMLElement, { key: string; box: HTMLElement }>();
  const busy = new Set<string>(); // callIds whose action was asked and not yet answered
  const arrived = new Map<string, () => void>(); // callId → the writes of what came later, for its next frame
  let lost: HTMLElement | undefined; // the row whose control had focus when it went away

  const button = (label: string, tool: string, name: string, act: () => unknown, callId: string) => {
    const node = part(doc, 'button', 'action', label);
    node.type = 'button';
    node.classList.add(`toolctx-status__action--${name}`);
    node.setAttribute('part', `action action-${name}`);
    node.setAttribute('aria-label', `${label} ${tool}`);
    node.addEventListener('click', () => {
      // Held until what it acts on is shown (Approve, while the arguments are read).
      if (node.dataset.held !== undefined) return;
      // Pressed once is enough: a second press while the first is on its way does nothing.
      if (busy.has(callId)) return;
      busy.add(callId);
      node.setAttribute('aria-disabled', 'true');
      Promise.resolve()
        .then(act)
        .catch(() => {
          // Refused or lost: the control can be pressed again.
          busy.delete(callId);
          node.removeAttribute('aria-disabled');
        });
    });
    return node;
  };

  return {
    see(event) {
      const { callId, type } = event;
      // A report, by far the most frequent event, says nothing about approvals or asks.
      if (!callId || type === 'tool.progress') return;
      const data = event.data as { reason?: string; id?: string } & Partial<AskShown>;
      if (type === 'tool.pending' && data.reason === 'approval' && typeof data.id === 'string')
        approvals.set(callId, data.id);
      else if (type === 'ask.requested' && typeof data.askId === 'string') {
        const { askId, message, schema } = data;
        asks.set(callId, { askId, message: typeof message === 'string' ? message : '', schema });
      } else if (type === 'approval.decided') approvals.delete(callId);
      else if (type === 'ask.answered' || type === 'tool.finished' || type === 'tool.failed') {
        approvals.delete(callId);
        asks.delete(callId);
        arrived.delete(callId);
      }
    },
    render(row, line) {
      const later = arrived.get(line.callId);
      if (later) {
        arrived.delete(line.callId);
        later();
      }
      const approvalId = line.endedAt === undefined ? approvals.get(line.callId) : undefined;
      const ask = line.endedAt === undefined ? asks.get(line.callId) : undefined;
      // One key per control set: while it stays, the controls are kept as they are (a form half
      // filled in is never rebuilt by the frames that redraw its line).
      const wants =
        ask && can.answer
          ? `ask:${ask.askId}`
          : approvalId !== undefined && can.resume
            ? `approve:${approvalId}`
            : line.endedAt === undefined && line.state === 'running' && can.cancel
              ? 'cancel'
              : '';
      const was = shown.get(row);
      const same = (was?.key ?? '') === wants;
      // Called before an ended row moves to the fold: a move, like a removed control, drops focus.
      // A running line that keeps its controls is not asked, so a stream of reports costs nothing.
      if (!same || line.endedAt !== undefined) {
        const root = row.getRootNode() as Document | ShadowRoot;
        if (row.contains(root.activeElement)) lost = row;
      }
      if (same) return;
      busy.delete(line.callId);
      was?.box.remove();
      shown.delete(row);
      if (!wants) return;
      const box = part(doc, 'span', 'actions');
      const { callId, tool } = line;
      if (ask && can.answer) {
        const text = row.querySelector<HTMLElement>('.toolctx-status__text')!;
        text.id ||= `toolctx-status-text-${++texts}`;
        // The line says the ask's message; the form repeats it only when the line had to cut it.
        const whole = cutMessage(ask.message, maxMessageLength) !== ask.message.trim();
        if (!ask.schema) {
          const open = can.asks;
          ask.url ??= Promise.resolve(open?.()).then((list) => list?.find((o) => o.askId === ask.askId)?.url);
        }
        let form: HTMLFormElement;
        try {
          form = createAskForm(doc, ask, text.id, whole, can.answer);
        } catch {
          // A schema no form can show: the ask is still there to decline or cancel.
          form = createAskForm(doc, { askId: ask.askId, message: ask.message }, text.id, whole, can.answer);
        }
        row.insertBefore(form, row.querySelector('.toolctx-status__bar'));
        shown.set(row, { key: wants, box: form });
        return;
      }
      if (approvalId !== undefined && can.resume) {
        const resume = can.resume;
        const known = details?.({ callId, tool });
        const ask = part(doc, 'span', 'ask', describeAsk(tool, known));
        const decide = (approved: boolean) => () => resume(approvalId, { approved });
        const approve = button('Approve', tool, 'approve', decide(true), callId);
        // Arguments the page does not know are read from the run: with the rest of the line when
        // it has them at once (a run in this page), else Approve is held until they are shown (or
        // the run cannot say), written in the line's next frame: nobody approves what they could
        // not see.
        const open = can.pendingApprovals;
        if (known?.args === undefined && open) {
          const show = (list: readonly OpenApproval[] | undefined) => {
            const found = Array.isArray(list)
              ? list.find((approval) => approval.approvalId === approvalId)
              : undefined;
            if (found) ask.textContent = describeAsk(tool, { ...known, args: found.args });
          };
          let listed: ReturnType<typeof open> | undefined;
          try {
            listed = open();
          } catch {
            listed = undefined; // the run cannot say: the tool's name alone
          }
          if (isPromiseLike(listed)) {
            approve.dataset.held = '';
            approve.setAttribute('aria-disabled', 'true');
            const release = () => {
              delete approve.dataset.held;
              approve.removeAttribute('aria-disabled');
            };
            const later = (write: () => void) => {
              arrived.set(callId, write);
              redraw(callId);
            };
            listed.then(
              (list) =>
                later(() => {
                  try {
                    show(list);
                  } finally {
                    release();
                  }
                }),
              () => later(release),
            );
          } else show(listed);
        }
        box.dataset.ask = '';
        // The two buttons wrap as one, never Approve on one row and Deny on the next.
        const pair = part(doc, 'span', 'pair');
        pair.append(approve, button('Deny', tool, 'deny', decide(false), callId));
        box.append(ask, pair);
      } else if (can.cancel) {
        const cancel = can.cancel;
        box.append(button('Cancel', tool, 'cancel', () => cancel(callId), callId));
      }
      // Before the bar, which spans the whole row below the words and controls.
      row.insertBefore(box, row.querySelector('.toolctx-status__bar'));
      shown.set(row, { key: wants, box });
    },
    refocus() {
      const row = lost;
      lost = undefined;
      const root = row?.getRootNode() as Document | ShadowRoot | undefined;
      if (!row || row.contains(root!.activeElement)) return;
      row.tabIndex = -1;
      // A finished line may sit in the folded list: then the fold's toggle, which leads to it.
      (row.checkVisibility() ? row : fallback())?.focus();
    },
  };
}

/**
 * The controls' styles: at least 24 × 24 CSS px whatever the font (WCAG 2.2 target size), the
 * description and its buttons on a row of their own under the line's words; the description takes
 * the room the buttons leave, so the two buttons stay together.
 */
export const actionsCss = `.toolctx-status__actions{display:flex;flex-wrap:wrap;align-items:center;gap:.4em}
.toolctx-status__actions[data-ask]{flex:1 0 100%;box-sizing:border-box;padding-inline-start:1.1em}
.toolctx-status__ask{flex:1 1 10em;color:var(--_fg);overflow-wrap:anywhere}
.toolctx-status__pair{display:flex;gap:.4em}
.toolctx-status__action{font:inherit;min-inline-size:24px;min-block-size:24px;color:var(--_fg);background:none;border:1px solid var(--_muted);border-radius:.4em;padding:.1em .7em;cursor:pointer}
.toolctx-status__action--approve{color:var(--_bg);background:var(--_accent);border-color:var(--_accent)}
.toolctx-status__action[aria-disabled=true]{opacity:.6;cursor:default}
.toolctx-status__action:focus-visible,.toolctx-status__line:focus-visible,.toolctx-status__form :focus-visible{outline:2px solid var(--_accent);outline-offset:2px}`;

const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | undefined)?.then === 'function';
