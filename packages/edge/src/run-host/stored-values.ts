// Values of any size in a RunStorage. A Durable Object refuses a value over 2 MB (SQLITE_TOOBIG):
// a run's event, its record (the run's `state`) or a pending approval (the call's arguments) can
// be bigger once a host raises `maxBodyBytes`, or a tool reports or calls with more. Such a value
// is kept as its JSON (`plainJson`, which is also what an SSE reader gets), cut in pieces under
// keys that sort right after its own: `key`, then `key#000001`, `key#000002`, and so on. Most
// values fit, and cost one put as before; reading one back costs one get, or its place in a list.
import { plainJson } from '@toolctx/core/sse';
import type { RunStorage, RunStorageListOptions } from './run-storage.js';

/**
 * Characters of JSON per piece of a value too big for one (a Durable Object refuses a value over
 * 2 MB): 256 Ki characters are at most 512 KiB however they are encoded.
 */
const pieceChars = 256 * 1024;

/** What a value's own key holds when the value is kept in pieces: its JSON's first piece, and how many there are. */
interface Pieced {
  json: string;
  parts: number;
}

/** A piece after the first, numbered so the pieces sort in order right after the value's key. */
const pieceKey = (key: string, part: number) => `${key}#${String(part).padStart(6, '0')}`;

// Every value a run keeps is an object without these two keys (an event, a record, an approval),
// and none is a string: what a key holds tells which it is.
const isPieced = (stored: unknown): stored is Pieced =>
  typeof stored === 'object' && stored !== null && 'json' in stored && 'parts' in stored;

/**
 * Stores `value` under a key that holds nothing yet (to replace a value, {@link replaceValue});
 * whether it was kept in pieces. Throws what the storage threw when it failed for another reason
 * than size (it is full, say), having kept nothing.
 */
export function putValue(storage: RunStorage, key: string, value: object): boolean {
  try {
    storage.put(key, value);
    return false;
  } catch (error) {
    putPieces(storage, key, jsonTooBig(value, error));
    return true;
  }
}

/**
 * Stores `value` under `key` in place of what it holds; whether it was kept in pieces. A storage
 * that fails for another reason than size leaves the value before; a value too big for one takes
 * the place of the one before, which is removed first. A caller that knows the value before was
 * not kept in pieces says so (`wasPieced: false`), saving the delete that looks for them.
 */
export function replaceValue(storage: RunStorage, key: string, value: object, wasPieced = true): boolean {
  try {
    storage.put(key, value);
  } catch (error) {
    const json = jsonTooBig(value, error);
    deleteValue(storage, key, wasPieced);
    putPieces(storage, key, json);
    return true;
  }
  if (wasPieced) deletePieces(storage, key); // the pieces of a bigger value before it
  return false;
}

/**
 * The JSON of a value the storage refused, when size is why: else the storage's own error again.
 * A value whose JSON fits in one piece is well under the limit however the storage encodes it.
 */
function jsonTooBig(value: object, error: unknown): string {
  const json = plainJson(value);
  if (json.length <= pieceChars) throw error;
  return json;
}

/** The pieces first, then the head that makes them a value: a failure in between leaves nothing. */
function putPieces(storage: RunStorage, key: string, json: string): void {
  const parts = Math.ceil(json.length / pieceChars);
  try {
    for (let part = 1; part < parts; part++)
      storage.put(pieceKey(key, part), json.slice(part * pieceChars, (part + 1) * pieceChars));
    storage.put<Pieced>(key, { json: json.slice(0, pieceChars), parts });
  } catch (error) {
    deletePieces(storage, key);
    throw error;
  }
}

/** The value under `key`, whole, or `undefined`. */
export function getValue<T>(storage: RunStorage, key: string): T | undefined {
  const stored = storage.get<T | Pieced>(key);
  if (!isPieced(stored)) return stored;
  let { json } = stored;
  for (let part = 1; part < stored.parts; part++) json += storage.get<string>(pieceKey(key, part)) ?? '';
  return JSON.parse(json) as T;
}

/**
 * Removes the value under `key` with its pieces; whether it was there. A caller that knows the
 * value was not kept in pieces says so (`pieced: false`), saving the delete that looks for them.
 */
export function deleteValue(storage: RunStorage, key: string, pieced = true): boolean {
  if (!storage.delete(key)) return false;
  if (pieced) deletePieces(storage, key);
  return true;
}

// One delete more than the pieces: the first that finds nothing. Cheaper than keeping a count.
function deletePieces(storage: RunStorage, key: string): void {
  for (let part = 1; storage.delete(pieceKey(key, part)); part++);
}

/**
 * The values under `prefix` from `start` on, whole and in key order, each once: a value's pieces
 * are not listed apart.
 */
export function* listValues<T>(
  storage: RunStorage,
  options: Pick<RunStorageListOptions, 'prefix' | 'start'>,
): Generator<[string, T]> {
  let pieced: { key: string; json: string; parts: number } | undefined;
  for (const [key, stored] of storage.list<T | Pieced | string>(options)) {
    if (typeof stored === 'string') {
      // A piece of the value before it; one whose head is outside the selection is skipped.
      if (!pieced) continue;
      pieced.json += stored;
      if (--pieced.parts > 1) continue;
      yield [pieced.key, JSON.parse(pieced.json) as T];
      pieced = undefined;
    } else if (isPieced(stored)) {
      if (stored.parts > 1) pieced = { key, json: stored.json, parts: stored.parts };
      else yield [key, JSON.parse(stored.json) as T];
    } else yield [key, stored];
  }
}
