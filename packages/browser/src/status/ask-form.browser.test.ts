/// <reference types="@vitest/browser-playwright" />
import { type AskAnswer, type AskSchema, createRuntime, defineTool, type OpenAsk } from '@toolctx/core';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { z } from 'zod';
import { attachStatus } from './attach-status.js';
import { defineStatusElement, type StatusElement } from './status-element.js';
import { container, fakeSource, frames } from './test-helpers.js';

afterEach(async () => {
  vi.useRealTimers();
  document.body.replaceChildren();
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
});

/** Waits until `check` holds, a frame at a time. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await frames(1);
  expect(check()).toBe(true);
}

/** A meeting to plan: a field of every kind a form ask may carry. */
const meeting: AskSchema = {
  type: 'object',
  properties: {
    day: { type: 'string', format: 'date', title: 'Day', description: 'Any weekday in May.' },
    minutes: { type: 'integer', title: 'Length (minutes)', minimum: 15, maximum: 120, default: 30 },
    budget: { type: 'number', title: 'Budget', minimum: 0 },
    email: { type: 'string', format: 'email', title: 'Invite' },
    link: { type: 'string', format: 'uri' },
    start: { type: 'string', format: 'date-time', title: 'Starts' },
    notes: { type: 'string', title: 'Notes', maxLength: 200 },
    remote: { type: 'boolean', title: 'Online', default: true },
    room: {
      type: 'string',
      title: 'Room',
      oneOf: [
        { const: 'r1', title: 'Blue room' },
        { const: 'r2', title: 'Green room' },
      ],
    },
    size: { type: 'string', title: 'Size', enum: ['s', 'm'], enumNames: ['Small', 'Medium'], default: 'm' },
    food: {
      type: 'array',
      title: 'Food',
      description: 'Pick up to two.',
      items: { type: 'string', enum: ['tea', 'cake', 'fruit'] },
      maxItems: 2,
      default: ['tea'],
    },
  },
  required: ['day', 'minutes', 'room'],
};

/** A widget over a hand-driven source, its answers recorded and refused or taken as the test says. */
function fakeAsk(reply: (askId: string, answer: AskAnswer) => unknown = () => ({ taken: true })) {
  const source = fakeSource();
  const element = container();
  element.style.cssText = 'inline-size:34rem;padding:1rem;font:15px system-ui,sans-serif';
  const answers: AskAnswer[] = [];
  // The run's open asks, where a URL ask's page is read: events do not carry it.
  const pages = new Map<string, unknown>();
  attachStatus(element, source, {
    locale: 'en',
    actions: {
      cancel() {},
      answer(askId, answer) {
        answers.push(answer);
        return reply(askId, answer);
      },
      asks: async () => [...pages].map(([askId, url]) => ({ askId, url }) as unknown as OpenAsk),
    },
  });
  source.emit('tool.started', 'c1', { tool: 'plan_meeting' });
  const ask = ({ url, ...data }: Record<string, unknown>) => {
    const askId = (data.askId as string | undefined) ?? 'ask_1';
    if (url !== undefined) pages.set(askId, url);
    source.emit('ask.requested', 'c1', { tool: 'plan_meeting', askId, expiresAt: 1, ...data });
  };
  const form = () => element.querySelector<HTMLFormElement>('form');
  return { source, element, answers, ask, form };
}

/** The accessible label of `control`: its `<label for>`'s or its fieldset's legend's text. */
const labelOf = (control: Element) =>
  (control.tagName === 'FIELDSET'
    ? control.querySelector('legend')?.textContent
    : (control as HTMLInputElement).labels?.[0]?.textContent) ?? '';

describe('the ask form on a call’s line', () => {
  it('shows a control for each field, by type, labelled, with help, defaults and required marked', async () => {
    const { element, ask, form } = fakeAsk();
    ask({ message: 'When shall we meet?', schema: meeting });
    await until(() => form() !== null);
    const shown = form()!;
    // Named by its line, which says the ask's message.
    const name = document.getElementById(shown.getAttribute('aria-labelledby')!);
    expect(name?.textContent).toBe('plan_meeting asks: When shall we meet?');
    expect(name?.closest('.toolctx-status__line')?.getAttribute('data-state')).toBe('pending');
    const controls = [...shown.querySelectorAll('input:not(fieldset input),select,fieldset')];
    expect(
      controls.map((c) => [
        labelOf(c),
        (c as HTMLInputElement).type,
        Boolean((c as HTMLInputElement).required),
      ]),
    ).toEqual([
      ['Day *', 'date', true],
      ['Length (minutes) *', 'number', true],
      ['Budget', 'number', false],
      ['Invite', 'email', false],
      ['link', 'url', false],
      ['Starts', 'datetime-local', false],
      ['Notes', 'text', false],
      ['Online', 'checkbox', false],
      ['Room *', 'select-one', true],
      ['Size', 'select-one', false],
      ['Food', 'fieldset', false],
    ]);
    const [day, minutes, budget, , , , notes, remote, room, size, food] = controls as HTMLInputElement[];
    expect(document.getElementById(day!.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Any weekday in May.',
    );
    expect(document.getElementById(food!.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Pick up to two.',
    );
    expect([minutes!.min, minutes!.max, minutes!.step, minutes!.value]).toEqual(['15', '120', '1', '30']);
    expect([budget!.min, budget!.step]).toEqual(['0', 'any']);
    expect(notes!.maxLength).toBe(200);
    expect(remote!.checked).toBe(true);
    const select = room as unknown as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.text])).toEqual([
      ['', 'Choose…'],
      ['r1', 'Blue room'],
      ['r2', 'Green room'],
    ]);
    expect((size as unknown as HTMLSelectElement).value).toBe('m');
    const boxes = [...food!.querySelectorAll('label')].map((l) => [
      l.textContent,
      l.querySelector('input')!.checked,
    ]);
    expect(boxes).toEqual([
      ['tea', true],
      ['cake', false],
      ['fruit', false],
    ]);
    expect([...shown.querySelectorAll('button')].map((b) => [b.textContent, b.type])).toEqual([
      ['Submit', 'submit'],
      ['Decline', 'button'],
      ['Cancel', 'button'],
    ]);
    // A line with an ask has no Cancel of its own beside the form's.
    expect(element.querySelectorAll('.toolctx-status__lines button').length).toBe(3);
    const result = await axe.run(element);
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });

  it('is filled in and sent with the keyboard alone, and the tool gets the values', async () => {
    const form: AskSchema = {
      type: 'object',
      properties: {
        notes: { type: 'string', title: 'Notes' },
        minutes: { type: 'integer', title: 'Length (minutes)', default: 30 },
        remote: { type: 'boolean', title: 'Online', default: true },
        room: { type: 'string', title: 'Room', enum: ['Blue', 'Green'] },
        food: {
          type: 'array',
          title: 'Food',
          items: { type: 'string', enum: ['tea', 'cake'] },
          default: ['tea'],
        },
      },
      required: ['notes', 'room'],
    };
    const plan = defineTool({
      name: 'plan_meeting',
      description: 'Plans a meeting, asking how.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ctx.ask({ message: 'How shall we meet?', schema: form }),
    });
    const run = createRuntime({ tools: [plan] }).startRun();
    const element = container();
    const before = document.createElement('button');
    before.textContent = 'before';
    element.before(before);
    attachStatus(element, run);
    const result = run.call({ tool: 'plan_meeting', args: {} });
    await until(() => element.querySelector('form') !== null);
    const notes = element.querySelector('input')!;
    before.focus();
    await userEvent.keyboard('{Tab}');
    expect(document.activeElement).toBe(notes);
    await userEvent.keyboard('Bring the plan{Tab}{Control>}a{/Control}45');
    // Online: Space unticks it. Room: the arrow picks Blue. Food: tea stays, Space ticks cake.
    await userEvent.keyboard('{Tab} {Tab}{ArrowDown}');
    expect((document.activeElement as HTMLSelectElement).value).toBe('Blue');
    await userEvent.keyboard('{Tab}{Tab} ');
    expect((document.activeElement as HTMLInputElement).value).toBe('cake');
    // Back to Notes, and Enter sends the form from there.
    await userEvent.keyboard('{Shift>}{Tab}{Tab}{Tab}{Tab}{Tab}{/Shift}');
    expect(document.activeElement).toBe(notes);
    await userEvent.keyboard('{Enter}');
    const outcome = await result;
    expect(outcome.ok && outcome.value).toEqual({
      action: 'accept',
      values: { notes: 'Bring the plan', minutes: 45, remote: false, room: 'Blue', food: ['tea', 'cake'] },
    });
    await until(() => element.querySelector('form') === null);
    // The focused field went with its form, and the call ended at once: focus is on the toggle
    // that leads to its folded line, not lost to <body>.
    expect(document.activeElement?.className).toBe('toolctx-status__toggle');
    await run.end();
  });

  it('enforces required fields and how many choices a list takes before anything is sent', async () => {
    const { answers, ask, form } = fakeAsk();
    ask({ message: 'When?', schema: meeting });
    await until(() => form() !== null);
    const shown = form()!;
    const submit = shown.querySelector<HTMLButtonElement>('button[type=submit]')!;
    submit.click();
    await frames();
    expect(answers).toEqual([]);
    expect(shown.querySelector<HTMLInputElement>('input[type=date]')!.validity.valueMissing).toBe(true);
    shown.querySelector<HTMLInputElement>('input[type=date]')!.value = '2026-05-04';
    shown.querySelector('select')!.value = 'r2';
    // Three of a list that takes two at most.
    for (const box of shown.querySelectorAll<HTMLInputElement>('fieldset input')) box.click();
    for (const box of shown.querySelectorAll<HTMLInputElement>('fieldset input')) box.checked || box.click();
    submit.click();
    await frames();
    expect(answers).toEqual([]);
    expect(shown.querySelector<HTMLInputElement>('fieldset input')!.validationMessage).toBe(
      'Choose at most 2.',
    );
    shown.querySelector<HTMLInputElement>('fieldset input')!.click();
    submit.click();
    await until(() => answers.length === 1);
    expect(answers[0]).toMatchObject({
      action: 'accept',
      values: { day: '2026-05-04', room: 'r2', food: ['cake', 'fruit'] },
    });
  });

  it("shows a refused answer's message in the form and keeps it for a corrected one", async () => {
    const refusal =
      'The answer does not fit the ask: "notes" must be at most 5 characters. The ask is still open: answer it again.';
    let refuse = true;
    const { source, element, answers, ask, form } = fakeAsk(() =>
      Promise.resolve(
        refuse
          ? {
              taken: false,
              reason: 'invalid',
              error: { kind: 'invalid-argument', message: refusal, retryable: false },
            }
          : { taken: true, toolCallId: 'c1' },
      ),
    );
    ask({ message: 'Any notes?', schema: { type: 'object', properties: { notes: { type: 'string' } } } });
    await until(() => form() !== null);
    const shown = form()!;
    const input = shown.querySelector('input')!;
    input.value = 'too long';
    shown.requestSubmit();
    await until(() => shown.querySelector('[role=alert]') !== null);
    expect(shown.querySelector('[role=alert]')!.textContent).toBe(refusal);
    expect(form()).toBe(shown);
    refuse = false;
    input.value = 'ok';
    shown.requestSubmit();
    await until(() => answers.length === 2);
    expect(answers[1]).toEqual({ action: 'accept', values: { notes: 'ok' } });
    source.emit('ask.answered', 'c1', { tool: 'plan_meeting', askId: 'ask_1', action: 'accept' });
    await until(() => form() === null);
    expect(element.querySelector('.toolctx-status__line')!.getAttribute('data-state')).toBe('running');
  });

  it('says an answer that did not reach the run, and can send it again', async () => {
    let fail = true;
    const { answers, ask, form } = fakeAsk(() => (fail ? Promise.reject(new Error('Offline.')) : undefined));
    ask({ message: 'Go on?', url: 'https://example.com/sign-in' });
    await until(() => form()?.querySelector('a')?.hidden === false);
    form()!.requestSubmit();
    await until(() => form()!.querySelector('[role=alert]') !== null);
    expect(form()!.querySelector('[role=alert]')!.textContent).toBe(
      'The answer was not sent: Offline. Try again.',
    );
    fail = false;
    form()!.requestSubmit();
    await until(() => answers.length === 2);
  });

  it.each(['decline', 'cancel'] as const)(
    'answers %s from its button, and the tool hears it',
    async (action) => {
      const plan = defineTool({
        name: 'plan_meeting',
        description: 'Plans a meeting, asking when.',
        inputSchema: z.object({}),
        execute: (_args, ctx) => ctx.ask({ message: 'When?', schema: meeting }),
      });
      const run = createRuntime({ tools: [plan] }).startRun();
      const element = container();
      attachStatus(element, run);
      const result = run.call({ tool: 'plan_meeting', args: {} });
      await until(() => element.querySelector('form') !== null);
      const button = [...element.querySelectorAll('form button')].find(
        (b) => b.textContent?.toLowerCase() === action,
      ) as HTMLButtonElement;
      button.focus();
      await userEvent.keyboard('{Enter}');
      const outcome = await result;
      expect(outcome.ok && outcome.value).toEqual({ action });
      await until(() => element.querySelector('form') === null);
      await run.end();
    },
  );

  it('links a URL ask to its page in a new tab, with Done, and never links a hostile address', async () => {
    const { element, answers, ask, form, source } = fakeAsk();
    ask({ message: 'Sign in to the calendar.', url: 'https://calendar.example.com/sign-in?state=x' });
    await until(() => form()?.querySelector('a')?.hidden === false);
    const link = form()!.querySelector('a')!;
    expect([link.href, link.target, link.rel, link.textContent]).toEqual([
      'https://calendar.example.com/sign-in?state=x',
      '_blank',
      'noopener noreferrer',
      'Open calendar.example.com (new tab)',
    ]);
    expect([...form()!.querySelectorAll('button:not([hidden])')].map((b) => b.textContent)).toEqual([
      'Done',
      'Decline',
      'Cancel',
    ]);
    form()!.querySelector<HTMLButtonElement>('button')!.click();
    await until(() => answers.length === 1);
    expect(answers[0]).toEqual({ action: 'accept' });
    for (const [n, url] of [
      'javascript:alert(document.domain)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://evil.example/',
      '/relative',
      42,
    ].entries()) {
      const was = form();
      source.emit('ask.answered', 'c1', { tool: 'plan_meeting', askId: `ask_${n + 1}`, action: 'accept' });
      ask({ askId: `ask_${n + 2}`, message: 'Go.', url });
      await until(() => form() !== null && form() !== was && form()!.querySelector('a') === null);
      expect(form()!.querySelector('button:not([hidden])')!.textContent).toBe('Decline');
      expect(element.querySelectorAll('a').length).toBe(0);
      expect(form()!.querySelector('.toolctx-status__alert')!.textContent).toBe(
        'This ask cannot be shown here: decline or cancel it.',
      );
    }
  });

  it("reads a URL ask's page from the run's open asks, never from its events", async () => {
    const signIn = defineTool({
      name: 'connect',
      description: 'Sends the person to sign in.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        ctx.ask({ message: 'Sign in.', url: 'https://calendar.example.com/a?state=s3' }),
    });
    const events: unknown[] = [];
    const run = createRuntime({ tools: [signIn] }).startRun({ onEvent: (event) => events.push(event) });
    const element = container();
    attachStatus(element, run);
    const result = run.call({ tool: 'connect', args: {} });
    await until(() => element.querySelector('form a')?.hasAttribute('hidden') === false);
    expect(element.querySelector('a')!.href).toBe('https://calendar.example.com/a?state=s3');
    expect(JSON.stringify(events)).not.toContain('state=s3');
    element.querySelector<HTMLButtonElement>('form button')!.click();
    expect(await result).toMatchObject({ ok: true, value: { action: 'accept' } });
    // A source that cannot list its asks cannot show the page: only Decline and Cancel.
    const { ask, form } = fakeAsk();
    const bare = fakeSource();
    const other = container();
    attachStatus(other, bare, { actions: { answer() {} } });
    bare.emit('tool.started', 'c9', { tool: 'connect' });
    bare.emit('ask.requested', 'c9', { tool: 'connect', askId: 'ask_9', message: 'Go.', expiresAt: 1 });
    await until(() => other.querySelector('.toolctx-status__alert') !== null);
    expect(other.querySelector('a')).toBe(null);
    ask({ message: 'Go.', url: 'https://example.com/' });
    await until(() => form()?.querySelector('a')?.hidden === false);
    await run.end();
  });

  it('offers Decline and Cancel for a form no browser can show, and the widget goes on', async () => {
    const { source, element, answers, ask, form } = fakeAsk();
    const broken = [
      { type: 'object', properties: null },
      { type: 'object', properties: { a: null } },
      { type: 'object', properties: { a: { type: 'string', title: 42 } }, required: 'a' },
      { type: 'object', properties: { a: { type: 'string', oneOf: [null] } } },
    ];
    for (const [n, schema] of broken.entries()) {
      const was = form();
      if (n) source.emit('ask.answered', 'c1', { tool: 'plan_meeting', askId: `ask_${n}`, action: 'cancel' });
      ask({ askId: `ask_${n + 1}`, message: 'Which?', schema });
      await until(() => form() !== null && form() !== was);
      expect(form()!.querySelector('.toolctx-status__alert')?.textContent).toBe(
        'This ask cannot be shown here: decline or cancel it.',
      );
      expect([...form()!.querySelectorAll('button')].map((b) => b.textContent)).toEqual([
        'Decline',
        'Cancel',
      ]);
    }
    form()!.querySelector<HTMLButtonElement>('button')!.click();
    await until(() => answers.length === 1);
    expect(answers[0]).toEqual({ action: 'decline' });
    source.emit('tool.progress', 'c2', { tool: 'crawl', payload: { message: 'still drawn' }, n: 1 });
    await until(() => element.textContent!.includes('still drawn'));
  });

  it('shows markup in an ask as text: message, titles, help and choices', async () => {
    const { element, ask, form } = fakeAsk();
    const hostile = '<img src=x onerror="window.pwned=1"><b>bold</b>';
    ask({
      message: `${hostile} ${'long '.repeat(40)}`,
      schema: {
        type: 'object',
        properties: {
          a: { type: 'string', title: hostile, description: hostile },
          b: { type: 'string', enum: [hostile] },
        },
      },
    });
    await until(() => form() !== null);
    await frames(2);
    expect(element.querySelectorAll('img,b').length).toBe(0);
    expect((window as { pwned?: number }).pwned).toBeUndefined();
    // The line cut the message, so the form shows it whole, as text.
    expect(form()!.querySelector('.toolctx-status__question')!.textContent).toBe(
      `${hostile} ${'long '.repeat(40)}`,
    );
    expect(form()!.querySelector('label')!.textContent).toBe(hostile);
    expect(form()!.querySelector('.toolctx-status__help')!.textContent).toBe(hostile);
    expect(form()!.querySelector('option:not([value=""])')!.textContent).toBe(hostile);
  });

  it('keeps the form, its values and focus while other lines take 10,000 reports', async () => {
    const { source, element, ask, form } = fakeAsk();
    ask({ message: 'Any notes?', schema: { type: 'object', properties: { notes: { type: 'string' } } } });
    await until(() => form() !== null);
    const shown = form()!;
    const input = shown.querySelector('input')!;
    input.focus();
    const rebuilt = new MutationObserver((records) => {
      for (const record of records) if (record.type === 'childList') changes.push(record);
    });
    const changes: MutationRecord[] = [];
    rebuilt.observe(shown, { subtree: true, childList: true, attributes: true });
    let n = 0;
    const typing = (async () => {
      for (const key of 'hello there') {
        await userEvent.keyboard(key === ' ' ? '{Space}' : key);
        await frames(1);
      }
    })();
    await new Promise<void>((resolve) => {
      const started = performance.now();
      const timer = setInterval(() => {
        const due = Math.min(10_000, Math.round((performance.now() - started) * 10));
        while (n < due) {
          n++;
          source.emit('tool.progress', `p${n % 3}`, {
            tool: 'crawl',
            payload: { message: `at ${n}`, done: n, total: 10_000 },
            n,
          });
        }
        if (n >= 10_000) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    await typing;
    await frames(3);
    rebuilt.disconnect();
    expect(form()).toBe(shown);
    expect(shown.querySelector('input')).toBe(input);
    expect(input.value).toBe('hello there');
    expect(document.activeElement).toBe(input);
    expect(changes).toEqual([]);
    expect(element.querySelectorAll('.toolctx-status__line').length).toBe(4);
  });

  it('makes every control of the form a target of at least 24 × 24 CSS px', async () => {
    const { element, ask, form, source } = fakeAsk();
    element.style.fontSize = '12px';
    ask({ message: 'When?', schema: meeting });
    await until(() => form() !== null);
    const targets = [...form()!.querySelectorAll<HTMLElement>('input,select,button')];
    expect(targets.length).toBe(16);
    const small = targets
      .map((target) => [target.outerHTML.slice(0, 40), target.getBoundingClientRect()] as const)
      .filter(([, box]) => box.width < 24 || box.height < 24);
    expect(small).toEqual([]);
    source.emit('ask.answered', 'c1', { tool: 'plan_meeting', askId: 'ask_1', action: 'cancel' });
    ask({ askId: 'ask_2', message: 'Sign in.', url: 'https://example.com/' });
    await until(() => form()?.querySelector('a')?.hidden === false);
    const link = form()!.querySelector('a')!.getBoundingClientRect();
    expect([link.width >= 24, link.height >= 24]).toEqual([true, true]);
  });
});

describe('the ask form in <toolctx-status>', () => {
  it('labels its fields and names the form inside the shadow root, and answers through options.actions', async () => {
    defineStatusElement();
    const status = document.createElement('toolctx-status') as StatusElement;
    const answers: AskAnswer[] = [];
    status.options = { actions: { answer: (_askId, answer) => answers.push(answer) } };
    document.body.append(status);
    const source = fakeSource();
    status.source = source;
    source.emit('tool.started', 'c1', { tool: 'plan_meeting' });
    source.emit('ask.requested', 'c1', {
      tool: 'plan_meeting',
      askId: 'ask_1',
      message: 'When?',
      schema: meeting,
      expiresAt: 1,
    });
    const shadow = status.shadowRoot!;
    await until(() => shadow.querySelector('form') !== null);
    const form = shadow.querySelector('form')!;
    expect(shadow.getElementById(form.getAttribute('aria-labelledby')!)?.textContent).toBe(
      'plan_meeting asks: When?',
    );
    const day = form.querySelector<HTMLInputElement>('input[type=date]')!;
    expect(day.labels?.[0]?.textContent).toBe('Day *');
    expect(shadow.getElementById(day.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Any weekday in May.',
    );
    expect((await axe.run(status)).violations.map((v) => v.id)).toEqual([]);
    form.querySelector<HTMLButtonElement>('button:not([type=submit])')!.click();
    await until(() => answers.length === 1);
    expect(answers).toEqual([{ action: 'decline' }]);
  });
});

describe('how the ask form looks', () => {
  /** What a meeting planner would ask: fewer fields than `meeting`, so the picture stays small. */
  const planner: AskSchema = {
    type: 'object',
    properties: {
      day: meeting.properties.day!,
      minutes: meeting.properties.minutes!,
      room: meeting.properties.room!,
      food: meeting.properties.food!,
      remote: meeting.properties.remote!,
      notes: meeting.properties.notes!,
    },
    required: ['day', 'minutes', 'room'],
  };

  async function scene() {
    await page.viewport(800, 900);
    const { element, ask, form, source } = fakeAsk(() =>
      Promise.resolve({
        taken: false,
        reason: 'invalid',
        error: {
          kind: 'invalid-argument',
          message:
            'The answer does not fit the ask: "minutes" must be at most 120. The ask is still open: answer it again.',
          retryable: false,
        },
      }),
    );
    source.emit('tool.started', 'c0', { tool: 'build_report' });
    source.emit('tool.progress', 'c0', {
      tool: 'build_report',
      payload: { message: 'Checked item 3 of 8', done: 3, total: 8 },
      n: 1,
    });
    ask({ message: 'When shall we meet?', schema: planner });
    await until(() => form() !== null);
    return { element, form: form()! };
  }

  const shoot = (element: HTMLElement, name: string) =>
    page.elementLocator(element).screenshot({ path: `__screenshots__/status/${name}.png` });

  it('has no axe violations in light and dark, with a refusal shown; keeps screenshots of both', async () => {
    const light = await scene();
    light.form.querySelector('input')!.value = '2026-05-04';
    light.form.querySelector<HTMLInputElement>('input[type=number]')!.value = '150';
    light.form.querySelector('select')!.value = 'r1';
    light.form.noValidate = true; // as if the browser's own check had been left out
    light.form.requestSubmit();
    await until(() => light.form.querySelector('[role=alert]') !== null);
    expect((await axe.run(light.element)).violations.map((v) => v.id)).toEqual([]);
    await shoot(light.element, 'ask-form-light');
    document.body.replaceChildren();
    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: 'dark' }],
    });
    const dark = await scene();
    dark.element.style.background = '#1f1f1f';
    const result = await axe.run(dark.element);
    expect(result.violations.map((v) => v.id)).toEqual([]);
    expect(result.passes.map((p) => p.id)).toContain('color-contrast');
    await shoot(dark.element, 'ask-form-dark');
  });
});
