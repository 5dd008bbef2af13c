/**
 * The bounds on data a tool hands over in `ctx.progress`, `ctx.log` and `ctx.emit`: nested at
 * most `maxDepth` objects and arrays deep (as a JSON body's brackets count), and at most
 * `maxBytes` as JSON (estimated as the walk goes: a string by its length, a number by its digits).
 * A tool's result value is held to the same depth; its size is the output budget's to bound.
 *
 * @example
 * ```ts
 * import { plainDataLimits } from '@toolctx/core';
 * plainDataLimits.maxDepth; // 64
 * plainDataLimits.maxBytes; // 4194304 (4 MiB)
 * ```
 */
export const plainDataLimits: Readonly<{ maxDepth: number; maxBytes: number }> = Object.freeze({
  maxDepth: 64,
  maxBytes: 4 * 1024 * 1024,
});

/**
 * The bounds one check holds a value to; `maxBytes` absent: no size bound. `result`: the value is
 * a tool's result, which crosses `JSON.stringify` rather than `plainJson`: a Map or a Set is
 * refused (JSON would write it as `{}`) and a class instance is left to its own `toJSON`.
 */
export interface PlainDataBounds {
  maxDepth: number;
  maxBytes?: number;
  result?: boolean;
}

/**
 * Why `value` cannot be carried faithfully as a tool's plain data, or `undefined` when it can.
 *
 * Carried: primitives other than symbols, plain objects and arrays, Date (written as its ISO
 * text), a bigint (written as its digits), a Map with string or number keys (written as an object
 * of its entries), a Set (an array) and a value met again inside itself (a cycle, written as
 * `"[cycle]"`) — what `plainJson` writes, and what a structured clone keeps. Refused, each naming
 * where: functions, symbols, class instances (a clone would drop their prototype), live handles,
 * a RegExp and binary data (JSON would turn them into `{}` or an object of every byte: save bytes
 * as an artifact), a Map keyed by objects, and anything past the bounds.
 *
 * The walk is iterative, so no depth a hostile value holds can overflow the stack, and it stops
 * at the first problem or once past `maxBytes`, so its work is bounded by the bounds.
 */
export function plainDataProblem(
  value: unknown,
  bounds: PlainDataBounds = plainDataLimits,
): string | undefined {
  // Fast path: most reports are a primitive or one flat object of primitives.
  if (typeof value !== 'object' || value === null) return leafProblem(value, '');
  const maxBytes = bounds.maxBytes ?? Number.POSITIVE_INFINITY;
  if (isFlatRecord(value, maxBytes)) return undefined;
  let bytes = 0;
  // Depth-first, so when a node at depth d comes off the stack, ancestors[0..d-1] are its chain.
  const stack: Frame[] = [{ value, key: '', parent: undefined, depth: 0 }];
  const ancestors: object[] = [];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const item = frame.value;
    if (typeof item !== 'object' || item === null) {
      const problem = leafProblem(item, frame);
      if (problem) return problem;
      bytes += leafBytes(item);
    } else {
      ancestors.length = frame.depth;
      if (ancestors.includes(item)) {
        bytes += 9; // "[cycle]"
      } else {
        if (frame.depth >= bounds.maxDepth) {
          return `data nested more than ${bounds.maxDepth} deep at ${pathOf(frame)} (flatten it, or save it as an artifact)`;
        }
        const children = childrenOf(item, frame, bounds.result === true);
        if (typeof children === 'string') return children;
        ancestors.push(item);
        bytes += children.bytes;
        for (let i = children.frames.length - 1; i >= 0; i--) stack.push(children.frames[i]!);
      }
    }
    if (bytes > maxBytes) {
      return `more than ${maxBytes} bytes of data (at ${pathOf(frame)}; save it as an artifact and report its ref)`;
    }
  }
  return undefined;
}

/** A plain object of a few short primitives, such as `{ message, done, total }`: nothing to walk. */
function isFlatRecord(value: object, maxBytes: number): boolean {
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  let bytes = 2;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    const type = typeof item;
    if (type === 'object' ? item !== null : type === 'symbol' || type === 'function') return false;
    bytes += key.length + 4 + (type === 'string' ? (item as string).length : 8);
  }
  return bytes <= maxBytes && Object.getOwnPropertySymbols(value).length === 0;
}

interface Frame {
  value: unknown;
  /** How this value is reached from its parent: `.key`, `[i]` or `<i>` (a Map's or Set's entry). */
  key: string;
  parent: Frame | undefined;
  depth: number;
}

function pathOf(frame: Frame | string): string {
  if (typeof frame === 'string') return frame || 'the top';
  const parts: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent; at = at.parent) parts.push(at.key);
  return parts.length === 0 ? 'the top' : parts.reverse().join('');
}

function leafProblem(value: unknown, where: Frame | string): string | undefined {
  if (typeof value === 'symbol') return `a symbol at ${pathOf(where)}`;
  if (typeof value === 'function') return `a function at ${pathOf(where)}`;
  return undefined;
}

function leafBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'bigint':
      return value.toString().length + 2;
    case 'number':
      return 8;
    default:
      return 5;
  }
}

/** An object's children to walk and the bytes its own JSON takes (brackets, keys), or why it is refused. */
function childrenOf(
  object: object,
  frame: Frame,
  result: boolean,
): { frames: Frame[]; bytes: number } | string {
  const depth = frame.depth + 1;
  const child = (value: unknown, key: string): Frame => ({ value, key, parent: frame, depth });
  if (Array.isArray(object)) {
    const frames = new Array<Frame>(object.length);
    for (let i = 0; i < object.length; i++) frames[i] = child(object[i], `[${i}]`);
    return { frames, bytes: 2 + object.length };
  }
  const proto = Object.getPrototypeOf(object);
  if (proto === Object.prototype || proto === null) {
    if (Object.getOwnPropertySymbols(object).length > 0) return `a symbol-keyed property at ${pathOf(frame)}`;
    const frames: Frame[] = [];
    let bytes = 2;
    for (const key in object) {
      frames.push(child((object as Record<string, unknown>)[key], `.${key}`));
      bytes += key.length + 4;
    }
    return { frames, bytes };
  }
  if (object instanceof Date) return { frames: [], bytes: 26 };
  if (result && (object instanceof Map || object instanceof Set)) {
    const name = object instanceof Map ? 'Map' : 'Set';
    return `a ${name} at ${pathOf(frame)} (JSON would write it as {}; return an object or an array)`;
  }
  if (object instanceof Map) {
    const frames: Frame[] = [];
    let bytes = 2;
    let i = 0;
    for (const [key, value] of object) {
      if (typeof key !== 'string' && typeof key !== 'number') {
        return `a Map keyed by ${describe(key)} at ${pathOf(frame)} (JSON keys are text; send an array of entries)`;
      }
      frames.push(child(value, `<${i++}>`));
      bytes += String(key).length + 4;
    }
    return { frames, bytes };
  }
  if (object instanceof Set) {
    let i = 0;
    const frames = Array.from(object, (value) => child(value, `<${i++}>`));
    return { frames, bytes: 2 + frames.length };
  }
  if (object instanceof RegExp) {
    return `a RegExp at ${pathOf(frame)} (JSON would write it as {}; send its source text)`;
  }
  if (object instanceof ArrayBuffer || ArrayBuffer.isView(object)) {
    return `binary data at ${pathOf(frame)} (JSON would write every byte as a key; save bytes with ctx.artifacts.put and send the ref)`;
  }
  if (result) return { frames: [], bytes: 0 };
  const name = (object.constructor as { name?: string } | undefined)?.name || 'unknown';
  return `an instance of ${name} at ${pathOf(frame)} (send plain data)`;
}

function describe(key: unknown): string {
  if (key === null) return 'null';
  if (typeof key === 'object') return 'an object';
  return `a ${typeof key}`;
}
