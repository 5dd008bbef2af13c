import type { Tool } from 'ai';
import type { ContentPart } from '../content/content-part.js';
import { renderParts } from '../content/render-parts.js';

// `ai` does not export the output type by name; it is what toModelOutput answers.
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;
type ContentOutput = Extract<ToolResultOutput, { type: 'content' }>;

/**
 * The AI SDK tool output for checked content parts: text as text, an image as `image-data`,
 * audio and a resource blob as `file-data`; an embedded text resource and a resource link as the
 * text the transcript gives them (a model cannot open a toolctx or test:// URI).
 */
export function toModelContent(parts: readonly ContentPart[]): ContentOutput {
  return { type: 'content', value: parts.map(toModelPart) };
}

function toModelPart(part: ContentPart): ContentOutput['value'][number] {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image-data', data: part.data, mediaType: part.mediaType };
    case 'audio':
      return { type: 'file-data', data: part.data, mediaType: part.mediaType };
    case 'resource':
      if (part.blob === undefined) return { type: 'text', text: renderParts([part]) };
      return {
        type: 'file-data',
        data: part.blob,
        mediaType: part.mediaType ?? 'application/octet-stream',
        ...fileName(part.uri),
      };
    case 'resource-link':
      return { type: 'text', text: renderParts([part]) };
  }
}

function fileName(uri: string): { filename?: string } {
  const last = uri.split(/[/\\]/).pop();
  return last ? { filename: last } : {};
}
