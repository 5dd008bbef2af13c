import type { ApprovalGate } from './approval-gate.js';
import { el } from './dom.js';
import type { Side } from './side.js';

/** The pace control's default and the stall threshold the column's widget uses. */
export const DEFAULT_PACE_MS = 400;
export const STALL_AFTER_MS = 3000;

/** A line under a control saying which toolctx feature it shows. */
export const hint = (text: string) => el('p', { class: 'hint' }, text);

/**
 * The scripted agent's controls and log, and the pace slider of `gather_sources`. The agent's
 * module (and the AI SDK in it) is fetched on the first run.
 */
export function mountAgentPanel(side: Side, gate: ApprovalGate): { controls: HTMLElement; log: HTMLElement } {
  const start = el('button', { type: 'button', 'data-action': 'agent' }, 'Run the agent');
  const stop = el('button', { type: 'button', 'data-action': 'agent-stop' }, 'Stop the agent');
  const pace = el('input', {
    type: 'range',
    min: '0',
    max: '5000',
    step: '100',
    value: String(DEFAULT_PACE_MS),
    'data-field': 'pace',
    'aria-label': 'Pace of gather_sources, in ms per source',
  });
  const paceShown = el('output', {}, `${DEFAULT_PACE_MS} ms`);
  const gather = el('button', { type: 'button', 'data-action': 'gather' }, 'Gather sources');
  const log = el('ol', { class: 'agent-log', 'data-role': 'agent-log', 'aria-live': 'polite' });
  const panel = el(
    'div',
    { class: 'agent', 'data-role': 'agent', 'data-state': 'idle' },
    el('div', { class: 'controls' }, start, stop),
    hint(
      'generateText with a scripted model calls these tools through toAiSdkTools: several calls, progress, an artifact, and the AI SDK’s tool approval that pauses it until you decide.',
    ),
    hint('Stop: the AI SDK’s abortSignal cancels the call in flight (the tool’s ctx.signal fires).'),
    el('div', { class: 'controls' }, el('label', {}, 'Pace ', pace), paceShown, gather),
    hint(
      `gather_sources has a 12 s timeout; silent for ${STALL_AFTER_MS / 1000} s its line says so: slow the pace to see both notes.`,
    ),
  );
  stop.disabled = true;
  pace.addEventListener('input', () => {
    paceShown.textContent = `${pace.value} ms`;
  });
  gather.addEventListener('click', () => {
    side.call('gather_sources', { topic: 'toolctx', count: 3, paceMs: Number(pace.value) });
  });

  const note = (text: string) => log.append(el('li', {}, text));
  let controller: AbortController | undefined;
  let waitingFor: string | undefined;
  start.addEventListener('click', async () => {
    controller = new AbortController();
    start.disabled = true;
    stop.disabled = false;
    log.replaceChildren();
    panel.dataset.state = 'running';
    note('The agent starts: gather sources, build a report, sign it, publish a note.');
    try {
      const { runAgent } = await import('./agent/run-agent.js');
      const text = await runAgent(
        side.run,
        {
          paceMs: () => Number(pace.value),
          note,
          approval: async (approvalId) => {
            panel.dataset.state = 'paused';
            waitingFor = approvalId;
            const decision = await gate.hear(approvalId);
            waitingFor = undefined;
            panel.dataset.state = 'running';
            return decision;
          },
        },
        controller.signal,
      );
      note(text);
      panel.dataset.state = 'done';
    } catch (error) {
      const stopped = controller.signal.aborted;
      note(stopped ? 'Stopped: the call in flight was cancelled.' : `The agent failed: ${messageOf(error)}`);
      panel.dataset.state = stopped ? 'stopped' : 'failed';
    } finally {
      start.disabled = false;
      stop.disabled = true;
    }
  });
  stop.addEventListener('click', () => {
    stop.disabled = true;
    controller?.abort();
    // An approval the agent waits for is answered no, so the run does not keep it pending.
    if (waitingFor) gate.withdraw(waitingFor, 'The agent was stopped.');
  });
  return {
    controls: panel,
    log: el('div', { class: 'agent-log-box' }, el('h3', {}, 'What the agent did'), log),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
