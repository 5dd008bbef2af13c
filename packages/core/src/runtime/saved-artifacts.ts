import type { ArtifactMeta } from '../artifacts/types.js';
import { maxSavedArtifacts, type SavedArtifact } from './call-book.js';

/**
 * What a run's calls in flight saved with `ctx.artifacts`, by call id, until each settles: its
 * record names the first 20 still there (`CallHandle.artifacts`). A child's go on to its parent
 * while the parent is in flight, whose record names what was saved in its name (a child decided
 * after its parent settled adds to no record but its own). An artifact deleted by any call of the
 * run is named by no call in flight. Held whole until then, as the MCP door's links of a call are.
 */
export class SavedArtifacts {
  private readonly byCall = new Map<string, Map<string, SavedArtifact>>();

  /** Notes an artifact the call saved (its meta) or deleted (its ref). */
  note(toolCallId: string, change: ArtifactMeta | string): void {
    if (typeof change === 'string') for (const saved of this.byCall.values()) saved.delete(change);
    else this.of(toolCallId).set(change.ref, savedArtifact(change));
  }

  /**
   * What the call saved, taken as it settles (its parent's from now on too, if `inFlight` says the
   * parent has not settled): the first 20 still there, or `undefined` for none.
   */
  take(
    toolCallId: string,
    parentId: string | undefined,
    inFlight: (toolCallId: string) => boolean,
  ): SavedArtifact[] | undefined {
    const saved = this.byCall.get(toolCallId);
    if (!saved) return undefined;
    this.byCall.delete(toolCallId);
    if (parentId !== undefined && inFlight(parentId)) {
      const parents = this.of(parentId);
      for (const [ref, artifact] of saved) parents.set(ref, artifact);
    }
    return saved.size > 0 ? [...saved.values()].slice(0, maxSavedArtifacts) : undefined;
  }

  /** How many calls' saves it holds (the calls in flight that saved something). */
  get held(): number {
    return this.byCall.size;
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

function savedArtifact({ ref, kind, mediaType, bytes, label }: ArtifactMeta): SavedArtifact {
  return label === undefined ? { ref, kind, mediaType, bytes } : { ref, kind, mediaType, bytes, label };
}
