export { encodeSse, encodeSseBytes, type SseMessage, sseHeaders } from './encode.js';
export { parseSse, readSse } from './parse.js';
