// MCP 2026's custom request headers (SEP-2243): a tool parameter whose input schema says
// `"x-mcp-header": "Region"` travels twice on a `tools/call`, in the body and as the header
// `Mcp-Param-Region` (literal, or `=?base64?…?=` for a value a header cannot hold), so a gateway can
// route on it without reading the body. The server checks that both say the same.
import type { JsonSchema } from '../tools/schema.js';

/** Each tool's parameters mirrored into headers: parameter name → header name (after `Mcp-Param-`). */
export type ParamHeaders = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** The parameters of `tools` that declare `x-mcp-header`, by tool; tools with none are left out. */
export function paramHeadersOf(tools: Iterable<{ name: string; inputJsonSchema: JsonSchema }>): ParamHeaders {
  const byTool = new Map<string, Map<string, string>>();
  for (const tool of tools) {
    const properties = (tool.inputJsonSchema as { properties?: Record<string, { 'x-mcp-header'?: unknown }> })
      .properties;
    for (const [param, schema] of Object.entries(properties ?? {})) {
      const header = schema?.['x-mcp-header'];
      if (typeof header !== 'string' || header === '') continue;
      const params = byTool.get(tool.name) ?? new Map<string, string>();
      params.set(param, header);
      byTool.set(tool.name, params);
    }
  }
  return byTool;
}

/**
 * Refuses a `tools/call` whose `Mcp-Param-*` headers do not say what its arguments say (a header
 * missing for a value in the body, one present for a value that is not, one that is not valid
 * Base64 in its `=?base64?…?=` form, or one with another value): 400, JSON-RPC `-32020`, naming
 * the header. `undefined` when they agree, or the request is not such a call. `parsedBody`, when
 * the caller has parsed the body already, is read instead of a clone of it.
 */
export async function refuseParamMismatch(
  request: Request,
  tools: ParamHeaders,
  parsedBody?: unknown,
): Promise<Response | undefined> {
  if (request.method !== 'POST' || request.headers.get('mcp-method') !== 'tools/call') return undefined;
  const params = tools.get(request.headers.get('mcp-name')?.trim() ?? '');
  if (!params) return undefined;
  const message = (parsedBody ??
    (await request
      .clone()
      .json()
      .catch(() => undefined))) as
    | { id?: string | number; params?: { name?: unknown; arguments?: Record<string, unknown> } }
    | undefined;
  if (!message?.params) return undefined;
  const args = message.params.arguments ?? {};
  for (const [param, header] of params) {
    const name = `Mcp-Param-${header}`;
    const sent = request.headers.get(name);
    const value = Object.hasOwn(args, param) ? args[param] : undefined;
    const expected = value === undefined || value === null ? undefined : String(value);
    const problem =
      sent === null
        ? expected === undefined
          ? undefined
          : `the header ${name} is missing, though the arguments give ${param}`
        : expected === undefined
          ? `the header ${name} is sent, though the arguments give no ${param}`
          : mismatch(name, param, sent, expected);
    if (problem) {
      return Response.json(
        {
          jsonrpc: '2.0',
          id: message.id ?? null,
          error: { code: -32020, message: `Header mismatch: ${problem}.` },
        },
        { status: 400 },
      );
    }
  }
  return undefined;
}

function mismatch(name: string, param: string, sent: string, expected: string): string | undefined {
  const wrapped = /^=\?base64\?(.*)\?=$/.exec(sent);
  if (!wrapped) return sent === expected ? undefined : `${name} does not match the argument ${param}`;
  const decoded = fromBase64(wrapped[1]!);
  if (decoded === undefined) return `${name} is not valid Base64 inside =?base64?…?=`;
  return decoded === expected ? undefined : `${name} does not match the argument ${param}`;
}

/** Strict Base64 (the standard alphabet, padded to a multiple of four) as UTF-8 text. */
function fromBase64(text: string): string | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
