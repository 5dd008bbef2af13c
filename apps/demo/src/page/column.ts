import { attachStatus } from '@toolctx/browser/status';
import type { ToolResult } from '@toolctx/core';
import { hint, mountAgentPanel, STALL_AFTER_MS } from './agent-panel.js';
import { createApprovalGate } from './approval-gate.js';
import { el } from './dom.js';
import type { ArtifactRow, Side } from './side.js';

/** What a column says about where its tools run. */
export interface ColumnInfo {
  id: 'page' | 'worker';
  title: string;
  where: string;
}

/**
 * One side of the page: the controls, the live status widget, the last result and the artifacts
 * panel, all driving the same tools through `side`.
 */
export function mountColumn(parent: HTMLElement, info: ColumnInfo, side: Side): void {
  const steps = el('input', { type: 'number', min: '1', max: '200', value: '8', 'data-field': 'steps' });
  const button = (action: string, label: string) =>
    el('button', { type: 'button', 'data-action': action }, label);
  const build = button('build', 'Build report');
  const cancel = button('cancel', 'Cancel');
  const publish = button('publish', 'Publish note (needs approval)');
  const approve = button('approve', 'Approve');
  const deny = button('deny', 'Deny');
  const sign = button('sign', 'Sign message (uses a credential)');
  const schedule = button('schedule', 'Schedule a meeting (asks you)');
  const status = el('div', { class: 'status', 'data-role': 'status' });
  const result = el('pre', { class: 'result', 'data-role': 'result' }, 'No call yet.');
  const artifacts = el('ul', { class: 'artifacts', 'data-role': 'artifacts' });
  cancel.disabled = true;
  const gate = createApprovalGate(side, approve, deny);
  const agent = mountAgentPanel(side, gate);

  parent.append(
    el(
      'section',
      { class: 'side', 'data-side': info.id },
      el('h2', {}, info.title),
      el('p', { class: 'where' }, info.where),
      el('p', { class: 'run' }, 'run ', el('code', { 'data-role': 'run-id' }, side.runId)),
      el('h3', {}, 'A tool per button'),
      el('div', { class: 'controls' }, el('label', {}, 'Steps ', steps), build, cancel),
      hint('Progress events with done/total, then an artifact; Cancel fires the tool’s ctx.signal.'),
      el('div', { class: 'controls' }, publish, approve, deny),
      hint('needsApproval: the call waits as approval-pending until a person decides (run.resume).'),
      el('div', { class: 'controls' }, sign),
      hint('needs: { credential }: the key reaches the tool, never the page, the result or the events.'),
      el('div', { class: 'controls' }, schedule),
      hint('ctx.ask: the call waits as input_required until you answer the form on its status line.'),
      el('h3', {}, 'An agent'),
      agent.controls,
      el('h3', {}, 'Live status'),
      status,
      agent.log,
      el('h3', {}, 'Last result'),
      result,
      el('h3', {}, 'Artifacts'),
      artifacts,
    ),
  );
  // Cancel on each running line (the side's own cancel), Approve and Deny on each waiting one, and
  // the form of each call that asks (the side's own answer).
  attachStatus(status, side, {
    stallAfterMs: STALL_AFTER_MS,
    actions: {
      resume: (approvalId, decision) => gate.answer(approvalId, decision),
      details: ({ callId }) => ({ args: side.argsOf(callId) }),
    },
  });

  const show = (tool: string, outcome: ToolResult) => {
    result.dataset.state = outcome.ok ? 'ok' : outcome.error.kind;
    // A call waiting for a person has not failed: say what to do rather than show an error object.
    result.textContent =
      !outcome.ok && outcome.error.kind === 'approval-pending'
        ? `${tool} waits for approval: Approve or Deny it here or on its status line.`
        : `${tool} → ${JSON.stringify(outcome.ok ? outcome.value : outcome.error, null, 2)}`;
  };
  const run = async (tool: string, args: unknown, running?: HTMLButtonElement) => {
    const call = side.call(tool, args);
    result.dataset.state = 'running';
    result.textContent = `${tool} is running…`;
    if (running) running.dataset.callId = call.callId;
    if (running) running.disabled = false;
    const outcome = await call.result;
    if (running) running.disabled = true;
    show(tool, outcome);
    return outcome;
  };

  build.addEventListener('click', () => void run('build_report', { steps: Number(steps.value) }, cancel));
  cancel.addEventListener('click', () => {
    cancel.disabled = true;
    if (cancel.dataset.callId) void side.cancel(cancel.dataset.callId);
  });
  publish.addEventListener('click', async () => {
    const outcome = await run('publish_note', { text: `Published from the ${info.id} side.` });
    if (!outcome.ok && outcome.error.kind === 'approval-pending') {
      const decided = (approved: boolean) => {
        result.textContent = `publish_note: ${approved ? 'approved' : 'denied'}, waiting for the result…`;
      };
      show('publish_note', await gate.ask(String(outcome.error.details?.approvalId), decided));
    }
  });
  sign.addEventListener('click', () => void run('sign_message', { message: 'hello from the demo' }));
  schedule.addEventListener('click', () => void run('schedule_meeting', { topic: 'the demo' }));

  const failed = (message: string) => {
    result.dataset.state = 'failed';
    result.textContent = message;
  };
  const refresh = async () => renderArtifacts(artifacts, await side.listArtifacts(), side, failed);
  side.events.subscribe((event) => {
    if (event.type === 'artifact.put') void refresh();
  });
  void refresh();
}

function renderArtifacts(
  list: HTMLUListElement,
  rows: ArtifactRow[],
  side: Side,
  failed: (message: string) => void,
): void {
  if (rows.length === 0) {
    list.replaceChildren(el('li', { class: 'empty' }, 'None yet.'));
    return;
  }
  list.replaceChildren(
    ...rows.map((row) => {
      const name = row.label ?? `${row.kind}-${row.ref}`;
      const link = el('a', { href: '#', 'data-ref': row.ref, download: name }, name);
      link.addEventListener('click', async (event) => {
        event.preventDefault();
        try {
          const url = URL.createObjectURL(await side.download(row.ref));
          el('a', { href: url, download: name }).click();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        } catch (error) {
          failed(`Download of ${row.ref} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
      return el('li', {}, link, ` ${row.kind}, ${row.bytes} bytes `, el('code', {}, row.ref));
    }),
  );
}
