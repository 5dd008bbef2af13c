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
  tool: '{tool} arbeitet…',
  'tool.generic': '{tool} arbeitet…',
  'tool.started': '{tool} gestartet…',
  'tool.progress': '{message}',
  'tool.progress.generic': '{tool} meldet Fortschritt ({count} bisher)…',
  'tool.done': '{tool} fertig',
  'tool.failed': '{tool} fehlgeschlagen',
  'tool.failed.timeout': '{tool} hat zu lange gebraucht ({timeout})',
  'tool.failed.timeout.generic': '{tool} hat zu lange gebraucht',
  'tool.failed.approval-denied': '{tool} nicht freigegeben — {reason}',
  'tool.failed.approval-denied.generic': '{tool} nicht freigegeben',
  'tool.failed.policy-refused': '{tool} ist hier nicht erlaubt',
  'tool.failed.door-lost': '{tool} gestoppt: sein Worker ist weg',
  'tool.failed.interrupted': '{tool} durch einen Neustart abgebrochen',
  'tool.cancelled': '{tool} abgebrochen',
  'tool.pending': '{tool} wartet auf {reason}…',
  'tool.asking': '{tool} fragt: {message}',
  'tool.asking.generic': '{tool} wartet auf eine Antwort…',
  'reason.approval': 'Freigabe',
  'reason.authorization': 'Anmeldung',
  'call.elapsed': '{elapsed}',
  'call.stalled': 'seit {silence} keine Meldung',
  'call.timeout': 'Zeitlimit in {remaining}',
  'run.summary': '{done} von {total} fertig',
  'run.summary.ended': '{outcomes} von {total}',
  'run.done': '{done} fertig',
  'run.failed': '{failed} fehlgeschlagen',
  'run.cancelled': '{cancelled} abgebrochen',
  'run.running': '{running} laufen',
  'run.pending': '{pending} warten',
  'finished.toggle': '{count} beendet',
  'finished.toggle.failed': '{count} beendet, {failed} fehlgeschlagen',
});
