import { isRef } from '@toolctx/core/ports';
import { metaFromObject } from './artifact-index.js';
import { pendingPrefix } from './pending-puts.js';

/** An R2 object that is an artifact of the store: its key, its scope's key part, its meta copy. */
export interface ArtifactObject {
  key: string;
  part: string;
  copy: NonNullable<ReturnType<typeof metaFromObject>>;
}

/**
 * Every R2 object under `prefix`, 1,000 a list call with their custom metadata: an
 * {@link ArtifactObject}, or null for an object that is not an artifact (left alone by callers).
 * The marks of puts under way (pending-puts.ts) are the store's own, and not listed.
 */
export async function* artifactObjects(
  bucket: R2Bucket,
  prefix: string,
): AsyncGenerator<ArtifactObject | null> {
  const marks = pendingPrefix(prefix);
  let cursor: string | undefined;
  do {
    // `include` is honoured at every compatibility date since 2022-08-04, which the base
    // workers-types entry predates, hence the widened type.
    const listing: R2ListOptions & { include: Array<'customMetadata'> } = {
      prefix,
      include: ['customMetadata'],
      ...(cursor ? { cursor } : {}),
    };
    const page = await bucket.list(listing);
    for (const object of page.objects) {
      if (object.key.startsWith(marks)) continue;
      const rest = object.key.slice(prefix.length);
      const slash = rest.lastIndexOf('/');
      const copy = metaFromObject(object);
      if (!copy || slash < 0 || rest.slice(slash + 1) !== copy.ref || !isRef(copy.ref)) yield null;
      else yield { key: object.key, part: rest.slice(0, slash), copy };
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
}
