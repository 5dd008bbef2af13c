// The live-status widget on three kinds of source: a run in this page, the <toolctx-status>
// custom element, and a run on a toolctx server (server-sent events, resumed with Last-Event-ID
// after a dropped connection). The page has <div id="local">, <button id="close">,
// <div id="remote"> and <toolctx-status>.
import { connectRun } from '@toolctx/browser/remote';
import { attachStatus, defineStatusElement, type StatusElement } from '@toolctx/browser/status';
import { createRuntime } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { tools } from './tools.js';

// 1. A local run; `summarise` keeps its artifact in the page's memory.
const run = createRuntime({ tools, artifacts: createMemoryArtifactStore() }).startRun();
const status = attachStatus(document.querySelector('#local')!, run, {
  templates: { 'tool.summarise.progress': 'Summarising: {message}' },
});
// The line stays after the call ends (done, failed or cancelled) until you detach the widget.
document.querySelector('#close')?.addEventListener('click', () => status.detach(), { once: true });

// 2. The custom element, on the same run: <toolctx-status></toolctx-status> in your HTML. Attach
// both before the call: a widget shows the events that come after it is attached.
defineStatusElement();
const element = document.querySelector<StatusElement>('toolctx-status')!;
element.source = run;
await run.call({ tool: 'summarise', args: { pages: ['a', 'b', 'c'] } });

// 3. A remote run, by id, from a toolctx Worker. A page on another origin needs the server to let
// it in: createToolServer({ cors: { origins: ['https://app.example.com'] }, ... }).
const remote = connectRun('https://tools.example.com', 'run_123', {
  headers: { authorization: 'Bearer <token>' },
});
attachStatus(document.querySelector('#remote')!, remote);
