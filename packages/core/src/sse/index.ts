/**
 * `@toolctx/core/sse`: server-sent events, written and read by one module — the encoder a door
 * writes a run's events with, and the reader (on `eventsource-parser`) a client reads them back
 * with, both by the WHATWG rules — and `plainJson`, the JSON text an event's data is written as.
 * Web standards only, so a Worker, a page and Node share it.
 *
 * @example
 * ```ts
 * import { encodeSse, parseSse } from '@toolctx/core/sse';
 * const text = encodeSse({ id: '1', event: 'tool.progress', data: '{"n":1}' });
 * parseSse(text); // [{ id: '1', event: 'tool.progress', data: '{"n":1}' }]
 * ```
 * @module
 */

export { plainJson } from '../plain-json.js';
export { encodeSse, encodeSseBytes, hasLineBreak, type SseMessage, sseHeaders } from './encode-sse.js';
export { parseSse, type ReadSseOptions, readSse, type SseEvent } from './read-sse.js';
