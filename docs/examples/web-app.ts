// main.ts — the page: starts the Worker, shows a live status line per call, and cancels on click.
import { attachStatus } from '@toolctx/browser/status';
import { connectWorker } from '@toolctx/browser/worker';

const worker = connectWorker(new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' }));
const run = worker.startRun({ identity: { tenant: 'me', principal: 'me' } });
attachStatus(document.querySelector('#status')!, run);

const cancel = new AbortController();
document.querySelector('#cancel')?.addEventListener('click', () => cancel.abort());

const result = await run.call({
  tool: 'summarise',
  args: { pages: ['First page text…', 'Second page text…'] },
  signal: cancel.signal,
});
if (result.ok)
  console.log(result.value); // { ref: 'art_…', pages: 2 }
else console.error(result.error.kind, result.error.message); // e.g. 'aborted'
