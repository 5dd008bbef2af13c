/**
 * Why `value` cannot cross a structured clone as plain data, or `undefined` when it can.
 *
 * A structural walk, far cheaper than a trial `structuredClone`. Accepted: primitives other than
 * symbols, plain objects and arrays, Date, RegExp, Map, Set, ArrayBuffer and typed arrays, and
 * cycles among them. Refused: functions, symbols, class instances (a clone would silently drop
 * their prototype) and live handles (streams, ports, promises, weak collections).
 */
export function cloneSafetyProblem(value: unknown): string | undefined {
  return walk(value, '', undefined);
}

function walk(value: unknown, path: string, ancestors: object[] | undefined): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
    case 'bigint':
      return undefined;
    case 'symbol':
      return `a symbol at ${path || 'the top'}`;
    case 'function':
      return `a function at ${path || 'the top'}`;
  }
  if (value === null) return undefined;
  const object = value as object;
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null && !Array.isArray(object)) {
    return leafProblem(object, path, ancestors);
  }
  if (ancestors?.includes(object)) return undefined; // a cycle: structuredClone keeps it
  const chain = ancestors ? [...ancestors, object] : [object];
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      const problem = walk(object[i], `${path}[${i}]`, chain);
      if (problem) return problem;
    }
    return undefined;
  }
  if (Object.getOwnPropertySymbols(object).length > 0)
    return `a symbol-keyed property at ${path || 'the top'}`;
  for (const key in object) {
    const problem = walk((object as Record<string, unknown>)[key], `${path}.${key}`, chain);
    if (problem) return problem;
  }
  return undefined;
}

function leafProblem(object: object, path: string, ancestors: object[] | undefined): string | undefined {
  if (object instanceof Date || object instanceof RegExp || object instanceof ArrayBuffer) return undefined;
  if (ArrayBuffer.isView(object)) return undefined;
  if (object instanceof Map || object instanceof Set) {
    const chain = ancestors ? [...ancestors, object] : [object];
    let i = 0;
    for (const entry of object instanceof Map ? object : object.values()) {
      const problem = walk(entry, `${path}<${i++}>`, chain);
      if (problem) return problem;
    }
    return undefined;
  }
  const name = (object.constructor as { name?: string } | undefined)?.name || 'unknown';
  return `an instance of ${name} at ${path || 'the top'} (send plain data)`;
}
