import type { Templates } from './templates.js';

/**
 * The status templates in German: every key of `defaultTemplates`, translated. Pass it with
 * `locale: 'de'` so numbers and durations match the words.
 *
 * @example
 * ```ts
 * import { createStatusModel, germanTemplates } from '@toolctx/core/status';
 * const status = createStatusModel({ templates: germanTemplates, locale: 'de' });
 * ```
 */
export const germanTemplates: Readonly<Templates> = Object.freeze({
  tool: '`{tool}` arbeitet…',
  'tool.generic': '`{tool}` arbeitet…',
  'tool.started': '`{tool}` gestartet…',
  'tool.progress': '{message}',
  'tool.progress.generic': '`{tool}` meldet Fortschritt ({count} bisher)…',
  'tool.done': '`{tool}` fertig',
  'tool.failed': '`{tool}` fehlgeschlagen: {error}',
  'tool.cancelled': '`{tool}` abgebrochen',
  'tool.pending': '`{tool}` wartet auf {reason}…',
  'reason.approval': 'Freigabe',
  'reason.authorization': 'Anmeldung',
  'call.elapsed': '{elapsed}',
  'call.stalled': 'seit {silence} keine Meldung',
  'call.timeout': 'Zeitlimit in {remaining}',
  'run.summary': '{done} von {total} fertig',
  'run.summary.failed': '{done} von {total} fertig, {failed} fehlgeschlagen',
  'run.summary.running': '{running} laufen · {done} von {total} fertig',
  'run.summary.running.failed': '{running} laufen · {done} von {total} fertig, {failed} fehlgeschlagen',
  'finished.toggle': '{count} beendet',
  'finished.toggle.failed': '{count} beendet, {failed} fehlgeschlagen',
});
