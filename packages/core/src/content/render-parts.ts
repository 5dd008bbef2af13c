import type { ContentPart } from './content-part.js';

/**
 * The transcript text of checked parts, one after another on lines of their own: text as it is,
 * an embedded text resource under a line naming it, and every binary payload (image, audio, a
 * resource blob) as a short note naming its kind, media type and size, never its base64.
 */
export function renderParts(parts: readonly ContentPart[]): string {
  return parts.map(renderPart).join('\n');
}

function renderPart(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mediaType}, ${sizeOf(part.data)}]`;
    case 'resource': {
      const type = part.mediaType ? ` ${part.mediaType}` : '';
      if (part.blob !== undefined) return `[resource ${part.uri}${type}, ${sizeOf(part.blob)}]`;
      return `[resource ${part.uri}${type}]\n${part.text ?? ''}`;
    }
    case 'resource-link': {
      const about = [part.mediaType, part.size === undefined ? undefined : formatBytes(part.size)]
        .filter(Boolean)
        .join(', ');
      const description = part.description ? `: ${part.description}` : '';
      return `[resource link ${part.title ?? part.name} ${part.uri}${about ? `, ${about}` : ''}]${description}`;
    }
  }
}

/** The decoded size of a base64 payload, written for people. */
const sizeOf = (data: string): string => formatBytes(base64Bytes(data));

/** How many bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
