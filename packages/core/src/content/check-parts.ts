// Loaded on the first result with content parts: most results are plain values and never need it.
import type { ErrorInfo } from '../errors.js';
import type { ContentPart } from './content-part.js';
import { renderParts } from './render-parts.js';

/** One problem with a returned part: where (`parts[1].data`), and what. */
interface PartIssue {
  path: string;
  message: string;
}

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;
const mediaTypePattern = /^[\w.+-]+\/[\w.+-]+/;

/**
 * Checks the parts a tool returned and copies them with their known fields only (nothing else a
 * tool put on them travels), with the transcript text made from them; or the `tool-error` that
 * names every malformed part. Never a partial result.
 */
export function checkParts(
  toolName: string,
  returned: unknown,
): { parts: ContentPart[]; text: string } | ErrorInfo {
  const issues: PartIssue[] = [];
  const parts: ContentPart[] = [];
  if (!Array.isArray(returned)) {
    issues.push({ path: 'parts', message: 'must be an array of content parts' });
  } else {
    returned.forEach((part, index) => {
      const copy = checkPart(part, `parts[${index}]`, issues);
      if (copy) parts.push(copy);
    });
  }
  if (issues.length === 0) return { parts, text: renderParts(parts) };
  const summary = issues
    .slice(0, 5)
    .map((issue) => `${issue.path} ${issue.message}`)
    .join('; ');
  const more = issues.length > 5 ? ` (+${issues.length - 5} more)` : '';
  return {
    kind: 'tool-error',
    message: `"${toolName}" returned content parts that are not valid: ${summary}${more}. Fix the parts the tool returns.`,
    retryable: false,
    details: { issues },
  };
}

function checkPart(part: unknown, at: string, issues: PartIssue[]): ContentPart | undefined {
  if (typeof part !== 'object' || part === null) {
    issues.push({ path: at, message: 'must be an object with a type' });
    return undefined;
  }
  const fields = part as Record<string, unknown>;
  const before = issues.length;
  const text = (key: string, optional = false): string | undefined => {
    const value = fields[key];
    if (value === undefined && optional) return undefined;
    if (typeof value !== 'string' || (!optional && value === '')) {
      issues.push({
        path: `${at}.${key}`,
        message: optional ? 'must be a string' : 'must be a non-empty string',
      });
      return undefined;
    }
    return value;
  };
  const encoded = (key: string): string | undefined => {
    const value = text(key);
    if (value !== undefined && !(value.length % 4 === 0 && base64.test(value))) {
      issues.push({ path: `${at}.${key}`, message: 'is not base64' });
    }
    return value;
  };
  const mediaType = (optional: boolean): string | undefined => {
    const value = text('mediaType', optional);
    if (value !== undefined && !mediaTypePattern.test(value)) {
      issues.push({ path: `${at}.mediaType`, message: 'must be a media type such as image/png' });
    }
    return value;
  };
  let copy: ContentPart | undefined;
  switch (fields.type) {
    case 'text': {
      const value = fields.text;
      if (typeof value !== 'string') issues.push({ path: `${at}.text`, message: 'must be a string' });
      else copy = { type: 'text', text: value };
      break;
    }
    case 'image':
    case 'audio': {
      const data = encoded('data');
      const type = mediaType(false);
      copy = { type: fields.type, data: data!, mediaType: type! };
      break;
    }
    case 'resource': {
      const uri = text('uri');
      const type = mediaType(true);
      const hasText = fields.text !== undefined;
      const hasBlob = fields.blob !== undefined;
      if (hasText === hasBlob) {
        issues.push({ path: at, message: 'must have exactly one of text and blob' });
        break;
      }
      copy = { type: 'resource', uri: uri! };
      if (type !== undefined) copy.mediaType = type;
      if (hasText) copy.text = text('text', true)!;
      else copy.blob = encoded('blob')!;
      break;
    }
    case 'resource-link': {
      copy = { type: 'resource-link', uri: text('uri')!, name: text('name')! };
      for (const key of ['title', 'description'] as const) {
        const value = text(key, true);
        if (value !== undefined) copy[key] = value;
      }
      const type = mediaType(true);
      if (type !== undefined) copy.mediaType = type;
      const { size } = fields;
      if (size !== undefined) {
        if (typeof size === 'number' && Number.isSafeInteger(size) && size >= 0) copy.size = size;
        else issues.push({ path: `${at}.size`, message: 'must be a whole number of bytes ≥ 0' });
      }
      break;
    }
    default:
      issues.push({
        path: `${at}.type`,
        message: `must be text, image, audio, resource or resource-link (got ${JSON.stringify(String(fields.type))})`,
      });
  }
  return issues.length === before ? copy : undefined;
}
