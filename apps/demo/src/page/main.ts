import { type ColumnInfo, mountColumn } from './column.js';
import { el } from './dom.js';
import { createPageSide } from './page-side.js';
import { createWorkerSide } from './worker-side.js';
import './styles.css';

const columns = document.querySelector<HTMLElement>('#columns')!;
const pageColumn = el('div');
const workerColumn = el('div');
columns.append(pageColumn, workerColumn);

const page: ColumnInfo = {
  id: 'page',
  title: 'In this page',
  where: 'A Web Worker runs the tools; artifacts in IndexedDB.',
};
const worker: ColumnInfo = {
  id: 'worker',
  title: 'On the Worker',
  where: 'A Durable Object runs the tools; artifacts in R2 and KV.',
};

mountColumn(pageColumn, page, createPageSide());
createWorkerSide().then(
  (side) => mountColumn(workerColumn, worker, side),
  (error: unknown) =>
    workerColumn.append(
      el(
        'p',
        { class: 'error' },
        `The Worker's tool API did not start a run: ${error instanceof Error ? error.message : String(error)}`,
      ),
    ),
);
