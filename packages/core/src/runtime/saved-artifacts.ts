import type { ArtifactMeta } from '../artifacts/types.js';
import { maxSavedArtifacts, type SavedArtifact } from './call-book.js';

/**
 * What a run's calls in flight saved with `ctx.artifacts` and did not delete, by call id, until
 * each settles: its record names them (`CallHandle.artifacts`). A child's go on to its parent, whose
 * record names what was saved in its name. A delete forgets only what the same call saved.
 */
export class SavedArtifacts {
  private readonly byCall = new Map<string, Map<string, SavedArtifact>>();

  /** Notes an artifact the call saved (its meta) or deleted (its ref). */
  note(toolCallId: string, change: ArtifactMeta | string): void {
    if (typeof change === 'string') this.byCall.get(toolCallId)?.delete(change);
    else keep(this.of(toolCallId), change.ref, savedArtifact(change));
  }

  /** What the call saved, taken as it settles (its parent's from now on too); `undefined` for none. */
  take(toolCallId: string, parentId: string | undefined): SavedArtifact[] | undefined {
    const saved = this.byCall.get(toolCallId);
    if (!saved) return undefined;
    this.byCall.delete(toolCallId);
    if (parentId !== undefined) {
      const parents = this.of(parentId);
      for (const [ref, artifact] of saved) keep(parents, ref, artifact);
    }
    return saved.size > 0 ? [...saved.values()] : undefined;
  }

  private of(toolCallId: string): Map<string, SavedArtifact> {
    let saved = this.byCall.get(toolCallId);
    if (!saved) {
      saved = new Map();
      this.byCall.set(toolCallId, saved);
    }
    return saved;
  }
}

/** Keeps `artifact` among a call's saved ones, while they are fewer than a handle names. */
function keep(saved: Map<string, SavedArtifact>, ref: string, artifact: SavedArtifact): void {
  if (saved.size < maxSavedArtifacts) saved.set(ref, artifact);
}

function savedArtifact({ ref, kind, mediaType, bytes, label }: ArtifactMeta): SavedArtifact {
  return label === undefined ? { ref, kind, mediaType, bytes } : { ref, kind, mediaType, bytes, label };
}
