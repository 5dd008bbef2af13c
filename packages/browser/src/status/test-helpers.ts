import type { ToolEvent } from '@toolctx/core';

/** A hand-driven event source that counts its listeners; events are stamped by `now`. */
export function fakeSource(now: () => number = Date.now) {
  const listeners = new Set<(event: ToolEvent) => void>();
  let seq = 0;
  return {
    subscribe(listener: (event: ToolEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get listeners() {
      return listeners.size;
    },
    emit(type: string, callId: string, data: Record<string, unknown>) {
      const event = { type, seq: ++seq, runId: 'run_t', callId, ts: now(), data } as ToolEvent;
      for (const listener of listeners) listener(event);
      return event;
    },
  };
}

/** Resolves after `count` animation frames. */
export async function frames(count = 2): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Resolves once a running line's held-back text is due (the widget writes it at most every 100 ms). */
export async function textSettled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 110));
  await frames();
}

/** The bars shown in `root`, as [value, max]. */
export function barValues(root: ParentNode): number[][] {
  return [...root.querySelectorAll('[role=progressbar]')].map((bar) => [
    Number(bar.getAttribute('aria-valuenow')),
    Number(bar.getAttribute('aria-valuemax')),
  ]);
}

/** A fresh container in the page. */
export function container(): HTMLElement {
  const element = document.createElement('section');
  document.body.append(element);
  return element;
}

/** The text of each line shown in `root`. */
export function lineTexts(root: ParentNode): string[] {
  return [...root.querySelectorAll('.toolctx-status__text')].map((node) => node.textContent ?? '');
}

/** A clock a test moves by hand. */
export function manualClock(start = 0) {
  let time = start;
  return {
    now: () => time,
    set(to: number) {
      time = to;
    },
  };
}
