// Content parts in MCP's vocabulary, both ways: what serveMcp sends, and what mcpTools reads.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { canonicalJson } from '../canonical-json.js';
import { type ContentPart, withParts } from '../content/content-part.js';
import type { KeptResult } from '../runtime/call-book.js';
import { errorMetaKey } from './wire.js';

/** MCP content blocks for checked parts: `mediaType` is MCP's `mimeType`, `resource-link` its `resource_link`. */
export function toMcpContent(parts: readonly ContentPart[]): ContentBlock[] {
  return parts.map(toMcpBlock);
}

function toMcpBlock(part: ContentPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
      return { type: part.type, data: part.data, mimeType: part.mediaType };
    case 'resource': {
      const type = part.mediaType === undefined ? {} : { mimeType: part.mediaType };
      const resource =
        part.blob !== undefined
          ? { uri: part.uri, ...type, blob: part.blob }
          : { uri: part.uri, ...type, text: part.text ?? '' };
      return { type: 'resource', resource };
    }
    case 'resource-link': {
      const { type: _type, mediaType, ...link } = part;
      return {
        type: 'resource_link',
        ...link,
        ...(mediaType === undefined ? {} : { mimeType: mediaType }),
      };
    }
  }
}

/**
 * The result schema mcpTools reads `tools/call` answers with: a result whose `content` is a list
 * of typed blocks (none read as `[]`). A block of a type MCP does not define passes (and becomes a
 * text note) instead of failing the call, as the SDK's own result schema would have it fail.
 */
export const lenientCallToolResultSchema: StandardSchemaV1<unknown, CallToolResult> = {
  '~standard': {
    version: 1,
    vendor: 'toolctx-mcp',
    validate(value) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { issues: [{ message: 'A tools/call result is an object.' }] };
      const content = (value as { content?: unknown }).content ?? [];
      const blocks = Array.isArray(content) ? content : [content];
      const typed = (block: unknown) =>
        typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string';
      if (!Array.isArray(content) || !blocks.every(typed))
        return {
          issues: [{ message: 'Expected content: a list of blocks, each with a type.', path: ['content'] }],
        };
      return { value: { ...value, content } as CallToolResult };
    },
  },
};

/**
 * What a local tool returns for a remote result: the text alone when it is all text; the
 * structured value alone when the only text is that value as JSON (what MCP servers add for
 * clients that read no `structuredContent`); otherwise the content as parts, with the structured
 * value beside them.
 */
export function fromMcpResult(content: readonly unknown[], structured: unknown): unknown {
  const allText = content.every(isText);
  if (allText && structured === undefined)
    return content.map((block) => (block as { text: string }).text).join('\n');
  const onlyJson =
    content.length === 0 ||
    (content.length === 1 && isJsonOf((content[0] as { text: string }).text, structured));
  if (allText && onlyJson) return structured;
  return withParts(content.map(fromMcpBlock), structured);
}

function fromMcpBlock(block: unknown): ContentPart {
  const fields = block as Record<string, unknown>;
  switch (fields.type) {
    case 'text':
      return { type: 'text', text: String(fields.text ?? '') };
    case 'image':
    case 'audio':
      return { type: fields.type, data: fields.data as string, mediaType: fields.mimeType as string };
    case 'resource': {
      const resource = (fields.resource ?? {}) as Record<string, unknown>;
      const part: ContentPart = { type: 'resource', uri: resource.uri as string };
      if (resource.mimeType !== undefined) part.mediaType = resource.mimeType as string;
      if (resource.blob !== undefined) part.blob = resource.blob as string;
      else part.text = resource.text as string;
      return part;
    }
    case 'resource_link': {
      const part: ContentPart = {
        type: 'resource-link',
        uri: fields.uri as string,
        name: fields.name as string,
      };
      for (const key of ['title', 'description', 'size'] as const) {
        if (fields[key] !== undefined) (part as Record<string, unknown>)[key] = fields[key];
      }
      if (fields.mimeType !== undefined) part.mediaType = fields.mimeType as string;
      return part;
    }
    default:
      return {
        type: 'text',
        text: `[MCP content of type ${JSON.stringify(String(fields.type))}, not shown]`,
      };
  }
}

const isText = (block: unknown): block is { type: 'text'; text: string } =>
  (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string';

function isJsonOf(text: string, value: unknown): boolean {
  try {
    return canonicalJson(JSON.parse(text)) === canonicalJson(value);
  } catch {
    return false;
  }
}

/**
 * A settled result as MCP's tool result: the tool's parts (or its transcript as text), an object
 * value as `structuredContent`; a failure as an `isError` result carrying the `ErrorInfo`. A result
 * kept as a link to its artifact is its cut transcript.
 */
export function toCallToolResult(result: KeptResult): CallToolResult {
  if (!result.ok) {
    return {
      isError: true,
      content: [{ type: 'text', text: result.error.message }],
      structuredContent: { error: result.error },
      _meta: { [errorMetaKey]: result.error },
    };
  }
  if ('linked' in result) return { content: [{ type: 'text', text: result.content }] };
  const { value } = result;
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  // The one place a result's MCP content is made: the tool's parts, or its transcript as text.
  const content: ContentBlock[] = result.parts
    ? toMcpContent(result.parts)
    : [{ type: 'text', text: result.content }];
  return {
    content,
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
  };
}
