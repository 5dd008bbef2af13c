import { BodyTimeoutError, defaultBodyTimeoutMs, readBoundedBody } from '../door/read-body.js';
import { HttpError } from './http-error.js';

/**
 * Reads a JSON request body, bounded: a declared `Content-Length` over the limit is refused before
 * reading, and the bytes are counted while reading (a body may lie about its length or send
 * none), a body still arriving after `timeoutMs` is a 408, and nesting deeper than 64 levels is
 * refused before parsing. Returns `undefined` for an absent body when `optional`.
 */
export async function readJson(
  request: Request,
  maxBytes: number,
  optional = false,
  timeoutMs = defaultBodyTimeoutMs,
): Promise<unknown> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readBoundedBody(request, maxBytes, timeoutMs);
  } catch (error) {
    if (!(error instanceof BodyTimeoutError)) throw error;
    throw new HttpError(
      408,
      'request-timeout',
      `The body did not arrive within ${timeoutMs} ms, the time this server gives a request body (bodyTimeoutMs); send it whole, at once.`,
      { bodyTimeoutMs: timeoutMs },
    );
  }
  if (bytes === undefined) throw tooLarge(maxBytes);
  if (bytes.byteLength === 0) {
    if (optional) return undefined;
    throw new HttpError(400, 'bad-request', 'This request needs a JSON body.');
  }
  if (!isJsonType(request.headers.get('content-type'))) {
    throw new HttpError(
      415,
      'unsupported-media-type',
      'Send the body as JSON, with Content-Type: application/json.',
    );
  }
  let text: string;
  try {
    text = utf8Strict.decode(bytes);
  } catch {
    throw new HttpError(400, 'bad-request', 'The body is not valid UTF-8.');
  }
  if (nestingDepth(text) > MAX_DEPTH) {
    throw new HttpError(
      400,
      'bad-request',
      `The body nests arrays or objects deeper than ${MAX_DEPTH} levels; send flatter JSON.`,
      { maxDepth: MAX_DEPTH },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'bad-request', 'The body is not valid JSON.');
  }
}

// One decoder for every request: a whole-buffer decode keeps no state between calls.
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

// JSON.parse itself copes with deep nesting, but what walks the value next (schema validation,
// structured clone across Durable Object RPC) recurses and overflows the stack: a 500. No tool's
// arguments need more than this.
const MAX_DEPTH = 64;

/** The deepest nesting of `[` and `{` outside strings; malformed text is left to JSON.parse. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

function isJsonType(header: string | null): boolean {
  if (header === 'application/json') return true;
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type?.startsWith('application/') === true && type.endsWith('+json'));
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    'payload-too-large',
    `The body is larger than this server accepts (${maxBytes} bytes).`,
    {
      maxBytes,
    },
  );
}
