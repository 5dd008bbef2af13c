import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';

describe('IndexedDB in this runtime', () => {
  it('stores and reads back a record through idb', async () => {
    const db = await openDB(`probe-${crypto.randomUUID()}`, 1, {
      upgrade(database) {
        database.createObjectStore('records');
      },
    });
    await db.put('records', { bytes: new Uint8Array([1, 2, 3]) }, 'k');
    expect(await db.get('records', 'k')).toEqual({ bytes: new Uint8Array([1, 2, 3]) });
    db.close();
  });
});
