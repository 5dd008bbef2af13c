// The live-status widget on three kinds of source: a run in this page, a run on a toolctx server
// (server-sent events, resumed with Last-Event-ID after a dropped connection), and the
// <toolctx-status> custom element.
import { connectRun } from '@toolctx/browser/remote';
import { attachStatus, defineStatusElement, type StatusElement } from '@toolctx/browser/status';
import { createRuntime } from '@toolctx/core';
import { tools } from './tools.js';

// 1. A local run.
const run = createRuntime({ tools }).startRun();
const status = attachStatus(document.querySelector('#local')!, run, {
  templates: { 'tool.summarise.progress': 'Summarising: {message}' },
});
await run.call({ tool: 'summarise', args: { pages: ['a', 'b', 'c'] } });
status.detach(); // stops listening and removes the widget

// 2. A remote run, by id, from a toolctx Worker.
const remote = connectRun('https://tools.example.com', 'run_123', {
  headers: { authorization: 'Bearer <token>' },
});
attachStatus(document.querySelector('#remote')!, remote);

// 3. The custom element: <toolctx-status></toolctx-status> in your HTML.
defineStatusElement();
const element = document.querySelector<StatusElement>('toolctx-status')!;
element.source = run;
