import type { AnyTool } from '../tools/define-tool.js';

/**
 * What a person reads when an MCP client asks them to approve a call: the tool by its title and
 * name, what it does, what it can affect, and its arguments one a line. The arguments come from
 * a model and may have been steered by what it read, so every value is shown on one line, cut
 * short, with control and direction-changing characters blanked: a value cannot draw lines of
 * its own that look like the message.
 */
export function approvalMessage(tool: AnyTool, args: unknown): string {
  const name = tool.title ? `"${oneLine(tool.title, 80)}" (${tool.name})` : `"${tool.name}"`;
  const lines = [`Allow ${name} to run?`];
  if (tool.description) lines.push(oneLine(tool.description, 300));
  lines.push(effects[tool.effect]);
  const entries =
    typeof args === 'object' && args !== null && !Array.isArray(args) ? Object.entries(args) : [];
  if (entries.length > 0) {
    lines.push('', 'With:');
    for (const [key, value] of entries.slice(0, maxArgs)) lines.push(`- ${oneLine(key, 40)}: ${show(value)}`);
    if (entries.length > maxArgs) lines.push(`- … and ${entries.length - maxArgs} more`);
  } else if (args !== undefined && typeof args !== 'object') lines.push('', `With: ${show(args)}`);
  return lines.join('\n');
}

const maxArgs = 10;

const effects: Record<AnyTool['effect'], string> = {
  read: 'It reads data.',
  write: 'It can change or delete data.',
  send: 'It can send data out of this app.',
};

function show(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return value === '' ? '(empty)' : oneLine(value, 120);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Uint8Array) return `(${value.byteLength} bytes of data)`;
  if (Array.isArray(value)) {
    const plain = value.every((item) => item === null || typeof item !== 'object');
    if (plain && value.length > 0) return oneLine(value.map((item) => String(item)).join(', '), 120);
    return `(a list of ${value.length})`;
  }
  if (typeof value === 'object') return `(${Object.keys(value).length} fields)`;
  return `(${typeof value})`;
}

// C0 and C1 controls (line breaks among them), and the bidirectional overrides and isolates.
const unsafe = /[\p{Cc}\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu;

function oneLine(text: string, max: number): string {
  const flat = text.replace(unsafe, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max).join('')}… (+${chars.length - max} more)`;
}
