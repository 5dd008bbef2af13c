// The form a call's line shows while its tool asks its user (`ctx.ask`): the fields of the ask's
// schema as native controls, or a link to the ask's page, with Submit (Done), Decline and Cancel.
// Everything from the event is written as text or as a property, never as markup.
import type { Answered, AskAnswer, AskField, AskSchema, AskValue } from '@toolctx/core';
import { part } from './part.js';

/** An open ask as `ask.requested` says it. */
export interface AskShown {
  askId: string;
  message: string;
  schema?: AskSchema;
  /** A URL ask's page, read from the run's open asks (events do not carry it); it may come later. */
  url?: string | PromiseLike<string | undefined>;
}

/** Sends an answer; a refusal it resolves with (`taken: false`) is shown in the form. */
export type SendAnswer = (askId: string, answer: AskAnswer) => unknown;

let forms = 0;

/** What a form says of an ask it cannot show: a page that is not safe to open, a broken form. */
export const cannotShow = 'This ask cannot be shown here: decline or cancel it.';

/**
 * A page an ask may send a person to: `https:`, or `http:` on this machine. Core refuses any
 * other when the tool asks, but the widget reads events that may come from anywhere.
 */
export function safeAskUrl(url: unknown): URL | undefined {
  try {
    const parsed = new URL(url as string);
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && local) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The value and title of each option of a choice field, or none for a field without choices. */
function choices(field: AskField): [string, string][] | undefined {
  const f = field as { enum?: string[]; enumNames?: string[]; oneOf?: { const: string; title?: string }[] };
  const items = (field.type === 'array' ? field.items : f) as typeof f & { anyOf?: typeof f.oneOf };
  const titled = items?.oneOf ?? items?.anyOf;
  if (Array.isArray(titled)) return titled.map((option) => [option.const, option.title ?? option.const]);
  if (Array.isArray(items?.enum)) return items.enum.map((value, at) => [value, f.enumNames?.[at] ?? value]);
  return undefined;
}

const inputTypes: Record<string, string> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

/** An ISO date and time as `datetime-local` shows it, in the person's own time zone. */
function localTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? ''
    : new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * Makes the form for `ask`, named by the line's text (`labelledBy`, an element id). `whole` shows
 * the ask's message in the form too, for when the line had to cut it. Throws on a schema no form
 * can show (an event may come from anywhere): the caller shows the ask without it.
 */
export function createAskForm(
  doc: Document,
  ask: AskShown,
  labelledBy: string,
  whole: boolean,
  send: SendAnswer,
): HTMLFormElement {
  const id = `toolctx-ask-${++forms}`;
  const form = part(doc, 'form', 'form');
  form.setAttribute('aria-labelledby', labelledBy);
  if (whole) form.append(part(doc, 'p', 'question', ask.message));
  // Each field's reader, which gives its value or nothing (an empty field that may stay empty).
  const readers: [string, () => AskValue | undefined][] = [];
  const { properties = {}, required = [] } = ask.schema ?? {};
  let n = 0;
  for (const [name, field] of Object.entries(properties)) {
    const key = `${id}-${n++}`;
    const must = required.includes(name);
    const box = part(doc, field.type === 'array' ? 'fieldset' : 'div', 'field');
    const title = part(
      doc,
      field.type === 'array' ? 'legend' : 'label',
      'label',
      field.title?.trim() || name,
    );
    if (must) title.append(part(doc, 'span', 'required', ' *'));
    const help = field.description ? part(doc, 'span', 'help', field.description) : undefined;
    if (help) help.id = `${key}-help`;
    const options = choices(field);
    let control: HTMLInputElement | HTMLSelectElement | undefined;
    if (field.type === 'array') {
      // A group of boxes: how many may be chosen is checked on the first box, which the browser
      // then points at when the form is sent.
      const boxes = (options ?? []).map(([value, text]) => {
        const input = part(doc, 'input');
        input.type = 'checkbox';
        input.value = value;
        input.checked = field.default?.includes(value) ?? false;
        const label = part(doc, 'label', 'choice');
        label.append(input, text);
        return { input, label };
      });
      const least = field.minItems ?? (must ? 1 : 0);
      const most = field.maxItems ?? boxes.length;
      const check = () => {
        const count = boxes.filter((b) => b.input.checked).length;
        boxes[0]?.input.setCustomValidity(
          count < least ? `Choose at least ${least}.` : count > most ? `Choose at most ${most}.` : '',
        );
      };
      box.addEventListener('change', check);
      check();
      // The help before the boxes, where it is read with the legend.
      box.append(title, ...(help ? [help] : []), ...boxes.map((b) => b.label));
      if (help) box.setAttribute('aria-describedby', help.id);
      readers.push([
        name,
        () => {
          const chosen = boxes.filter((b) => b.input.checked).map((b) => b.input.value);
          return chosen.length || must ? chosen : undefined;
        },
      ]);
    } else if (options) {
      const select = part(doc, 'select');
      control = select;
      const fallback = (field as { default?: string }).default;
      // Nothing chosen yet: an empty value, which `required` refuses.
      const option = ([value, text]: [string, string]) => {
        const node = part(doc, 'option', undefined, text);
        node.value = value;
        return node;
      };
      if (!must || fallback === undefined) select.append(option(['', must ? 'Choose…' : '—']));
      select.append(...options.map(option));
      select.value = fallback ?? '';
      readers.push([name, () => select.value || undefined]);
    } else {
      const input = part(doc, 'input');
      control = input;
      if (field.type === 'boolean') {
        input.type = 'checkbox';
        input.checked = field.default ?? false;
        readers.push([name, () => input.checked]);
      } else if (field.type === 'number' || field.type === 'integer') {
        input.type = 'number';
        input.step = field.type === 'integer' ? '1' : 'any';
        if (field.minimum !== undefined) input.min = String(field.minimum);
        if (field.maximum !== undefined) input.max = String(field.maximum);
        if (field.default !== undefined) input.value = String(field.default);
        readers.push([name, () => (input.value === '' ? undefined : input.valueAsNumber)]);
      } else {
        const text = field as Extract<AskField, { minLength?: number }>;
        const local = text.format === 'date-time';
        input.type = inputTypes[text.format ?? ''] ?? 'text';
        if (text.minLength !== undefined) input.minLength = text.minLength;
        if (text.maxLength !== undefined) input.maxLength = text.maxLength;
        if (text.default !== undefined) input.value = local ? localTime(text.default) : text.default;
        // A date and time goes back in ISO 8601 with its zone (UTC), not the form's local time.
        readers.push([
          name,
          () => (input.value === '' ? undefined : local ? new Date(input.value).toISOString() : input.value),
        ]);
      }
      input.name = name;
    }
    if (control) {
      control.id = key;
      control.required = must && field.type !== 'boolean';
      (title as HTMLLabelElement).htmlFor = key;
      if (help) control.setAttribute('aria-describedby', help.id);
      // A box sits in its label, before the words, like a choice of a list.
      if (field.type === 'boolean') {
        title.classList.add('toolctx-status__choice');
        title.prepend(control);
      }
      box.append(title);
      if (field.type !== 'boolean') box.append(control);
    }
    if (help && control) box.append(help);
    form.append(box);
  }

  const buttons = part(doc, 'span', 'pair');
  const button = (label: string, action: AskAnswer['action'] | 'submit') => {
    const node = part(doc, 'button', 'action', label);
    node.classList.add(`toolctx-status__action--${action === 'submit' ? 'approve' : action}`);
    node.type = action === 'submit' ? 'submit' : 'button';
    if (action !== 'submit') node.addEventListener('click', () => answer({ action }));
    buttons.append(node);
    return node;
  };
  const submit = button(ask.schema ? 'Submit' : 'Done', 'submit');
  button('Decline', 'decline');
  button('Cancel', 'cancel');
  form.append(buttons);
  if (!ask.schema) {
    // The page comes from the run's open asks. Until it is known, and for one that cannot be
    // opened (which cannot be finished), only Decline and Cancel are offered.
    submit.hidden = true;
    const link = part(doc, 'a', 'link');
    link.hidden = true;
    form.insertBefore(link, buttons);
    const cannot = () => {
      submit.remove();
      link.replaceWith(part(doc, 'p', 'alert', cannotShow));
    };
    Promise.resolve(ask.url).then((url) => {
      const page = safeAskUrl(url);
      if (!page) return cannot();
      link.textContent = `Open ${page.host}`;
      link.href = page.href;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.append(part(doc, 'span', 'new-tab', ' (new tab)'));
      link.hidden = submit.hidden = false;
    }, cannot);
  }

  let busy = false;
  let alert: HTMLElement | undefined;
  const say = (text: string) => {
    alert ??= part(doc, 'p', 'alert');
    alert.setAttribute('role', 'alert');
    alert.textContent = text;
    form.insertBefore(alert, buttons);
  };
  function answer(given: AskAnswer): void {
    // Sent once: a second press while the first answer is on its way does nothing.
    if (busy) return;
    busy = true;
    form.setAttribute('aria-busy', 'true');
    Promise.resolve()
      .then(() => send(ask.askId, given))
      .then(
        (answered) => {
          const refused = answered as Answered | undefined;
          if (refused?.taken !== false) return;
          say(refused.error.message);
          release();
        },
        (error: unknown) => {
          say(
            `The answer was not sent: ${error instanceof Error ? error.message : String(error)} Try again.`,
          );
          release();
        },
      );
  }
  const release = () => {
    busy = false;
    form.removeAttribute('aria-busy');
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values: Record<string, AskValue> = {};
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined) values[name] = value;
    }
    answer(ask.schema ? { action: 'accept', values } : { action: 'accept' });
  });
  return form;
}

/**
 * The form's styles: fields stacked under the line's words, each label above its control (a box
 * beside its label), every control and button at least 24 × 24 CSS px.
 */
export const askCss = `.toolctx-status__form{flex:1 0 100%;box-sizing:border-box;margin:.2em 0 .4em .2em;padding:.3em 0 .3em .85em;border-inline-start:2px solid var(--_warn);display:flex;flex-direction:column;align-items:flex-start;gap:.6em}
.toolctx-status__field{display:flex;flex-direction:column;gap:.2em;margin:0;padding:0;border:0;min-inline-size:0;max-inline-size:100%}
.toolctx-status__label{font-weight:600;padding:0}
.toolctx-status__required{color:var(--_failed)}
.toolctx-status__help,.toolctx-status__new-tab{color:var(--_muted);font-size:.9em}
.toolctx-status__choice{display:flex;align-items:center;gap:.4em;min-block-size:24px}
.toolctx-status__form input,.toolctx-status__form select{font:inherit;color:var(--_fg);background:var(--_bg);border:1px solid var(--_muted);border-radius:.3em;padding:.15em .4em;min-block-size:24px;box-sizing:border-box;max-inline-size:100%}
.toolctx-status__form :is([type=text],[type=email],[type=url]){inline-size:20em}
.toolctx-status__form input[type=checkbox]{inline-size:24px;block-size:24px;margin:0;accent-color:var(--_accent)}
.toolctx-status__form p{margin:0}
.toolctx-status__question{white-space:pre-wrap;overflow-wrap:anywhere}
.toolctx-status__alert{color:var(--_failed);font-weight:600}
.toolctx-status__link{color:var(--_accent);display:inline-flex;align-items:center;min-block-size:24px}`;
