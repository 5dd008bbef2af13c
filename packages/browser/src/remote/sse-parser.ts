/** One server-sent event: its `id:`, `event:` and `data:` fields (data lines joined by newlines). */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body as it arrives, by the WHATWG rules: lines end in CRLF, LF or
 * CR; a blank line dispatches; `:` starts a comment; one space after the colon is dropped.
 * Leaving the loop early cancels the body.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = lineEnd(buffer);
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
        if (line === '') {
          if (data.length)
            yield id === undefined
              ? { event: event || 'message', data: data.join('\n') }
              : { id, event: event || 'message', data: data.join('\n') };
          data = [];
          event = '';
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let text = colon < 0 ? '' : line.slice(colon + 1);
          if (text.startsWith(' ')) text = text.slice(1);
          if (field === 'data') data.push(text);
          else if (field === 'event') event = text;
          else if (field === 'id' && !text.includes('\0')) id = text;
        }
        end = lineEnd(buffer);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The index of the first line break, or -1; a lone CR at the end may yet be followed by LF. */
function lineEnd(buffer: string): number {
  for (let i = 0; i < buffer.length; i++) {
    const char = buffer[i];
    if (char === '\n') return i;
    if (char === '\r') return i === buffer.length - 1 ? -1 : i;
  }
  return -1;
}
