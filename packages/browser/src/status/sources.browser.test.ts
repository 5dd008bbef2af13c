import { createRuntime, defineTool, type ToolEvent } from '@toolctx/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { attachStatus } from './attach-status.js';
import { defineStatusElement, type StatusElement } from './status-element.js';
import { barValues, container, frames, lineTexts } from './test-helpers.js';

afterEach(() => {
  document.body.replaceChildren();
});

const steps = defineTool({
  name: 'steps',
  description: 'Counts up, reporting each step.',
  inputSchema: z.object({ count: z.number() }),
  execute: async ({ count }, ctx) => {
    for (let i = 1; i <= count; i++) {
      ctx.progress({ message: `step ${i} of ${count}`, done: i, total: count });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return count;
  },
});

async function record(): Promise<ToolEvent[]> {
  const run = createRuntime({ tools: [steps] }).startRun();
  const recording: ToolEvent[] = [];
  run.events.subscribe((event) => recording.push(structuredClone(event)));
  await run.callBatch([
    { tool: 'steps', args: { count: 3 } },
    { tool: 'steps', args: { count: 2 } },
  ]);
  await run.end();
  return recording;
}

describe('what attachStatus can watch', () => {
  it('a replayed recording, as an async iterable', async () => {
    const recording = await record();
    async function* replay() {
      for (const event of recording) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        yield event;
      }
    }
    const element = container();
    attachStatus(element, replay());
    // The replay's timers and the widget's frames stretch on a loaded machine: wait for the end.
    await vi.waitFor(() => expect(lineTexts(element)).toEqual(['steps done', 'steps done']), {
      timeout: 10_000,
      interval: 20,
    });
    const bars = barValues(element);
    expect(bars.sort()).toEqual([
      [2, 2],
      [3, 3],
    ]);
  });

  it("a run's events object, live", async () => {
    const run = createRuntime({ tools: [steps] }).startRun();
    const element = container();
    attachStatus(element, run.events);
    const seen: string[] = [];
    new MutationObserver(() => seen.push(lineTexts(element).join('|'))).observe(element, {
      subtree: true,
      characterData: true,
      childList: true,
    });
    await run.call({ tool: 'steps', args: { count: 30 } });
    await frames();
    expect(seen.some((text) => /^step \d+ of 30$/.test(text))).toBe(true);
    expect(lineTexts(element)).toEqual(['steps done']);
  });

  it('stops iterating a stream on detach', async () => {
    let returned = false;
    const endless: AsyncIterable<ToolEvent> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<ToolEvent>>(() => {}),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const status = attachStatus(container(), endless);
    status.detach();
    expect(returned).toBe(true);
  });

  it('refuses a source it cannot read, saying what it takes', () => {
    expect(() => attachStatus(container(), {} as never)).toThrow(/Run, a run stream/);
  });
});

describe('<toolctx-status>', () => {
  it('renders its source in a shadow root and lets go of it when removed', async () => {
    const Element = defineStatusElement();
    expect(defineStatusElement()).toBe(Element);
    const status = document.createElement('toolctx-status') as StatusElement;
    status.options = { templates: { 'tool.steps.done': 'Counted.' } };
    document.body.append(status);
    const run = createRuntime({ tools: [steps] }).startRun();
    let listeners = 0;
    const counted = {
      events: {
        subscribe(listener: (event: ToolEvent) => void) {
          listeners++;
          const stop = run.events.subscribe(listener);
          return () => {
            listeners--;
            stop();
          };
        },
      },
    };
    status.source = counted;
    await run.call({ tool: 'steps', args: { count: 2 } });
    await frames();
    const shadow = status.shadowRoot!;
    expect(lineTexts(shadow)).toEqual(['Counted.']);
    expect(shadow.querySelector('[aria-live="polite"]')).not.toBeNull();
    expect(shadow.querySelector('[part~="line"]')).not.toBeNull();
    status.remove();
    expect(listeners).toBe(0);
    expect(shadow.querySelector('.toolctx-status')).toBeNull();
  });

  it('takes up a source and options set on it before it was defined', async () => {
    const early = document.createElement('toolctx-status-early') as StatusElement;
    early.options = { templates: { 'tool.steps.done': 'Counted early.' } };
    const run = createRuntime({ tools: [steps] }).startRun();
    early.source = run;
    document.body.append(early);
    defineStatusElement('toolctx-status-early');
    expect(Object.hasOwn(early, 'source')).toBe(false);
    await run.call({ tool: 'steps', args: { count: 1 } });
    await frames();
    expect(lineTexts(early.shadowRoot!)).toEqual(['Counted early.']);
  });

  it('has a setter for source and for options, which is what Svelte 5 looks for to set a prop as a property', () => {
    const Element = defineStatusElement();
    for (const name of ['source', 'options'])
      expect(Object.getOwnPropertyDescriptor(Element.prototype, name)?.set, name).toBeTypeOf('function');
    expect(Object.hasOwn(new Element(), 'options')).toBe(false);
  });
});
