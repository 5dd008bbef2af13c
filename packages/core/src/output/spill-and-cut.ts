import type { ArtifactMeta, ArtifactPut } from '../artifacts/types.js';
import { cutUtf8, utf8Bytes } from './cut-utf8.js';

/**
 * Input of {@link spillAndCut}. `store` is the run-bound artifact store (scope already closed
 * over), e.g. `{ put: (input) => artifacts.put(scope, input) }`.
 */
export interface SpillInput {
  text: string;
  budgetBytes: number;
  toolName: string;
  /** The media type the whole text is saved under; `text/plain; charset=utf-8` when absent. */
  mediaType?: string;
  store?: {
    /** Saves the whole output as an artifact of the run's scope. */
    put(input: ArtifactPut): Promise<ArtifactMeta>;
  };
}

/**
 * What {@link spillAndCut} answers. `spilled` is set when the whole text was saved as an
 * artifact; `cut` whenever the content was cut (also when nothing could be saved).
 */
export interface SpillResult {
  content: string;
  spilled?: { ref: string; bytes: number; keptBytes: number };
  cut?: { bytes: number; keptBytes: number; lostBytes: number };
}

const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function marker(kept: number, total: number, lost: number, ref: string | undefined, why: string): string {
  const shown = `${grouped(kept)} of ${grouped(total)} bytes shown`;
  return ref
    ? `\n… [cut: ${shown}; the whole result is artifact ${ref}]`
    : `\n… [cut: ${shown}; ${grouped(lost)} bytes were lost (${why})]`;
}

/**
 * Fits a tool's transcript text into its byte budget. If the UTF-8 size fits, the text is
 * returned unchanged. Otherwise the whole text is FIRST saved as an artifact of kind
 * `tool-result/<toolName>`, THEN cut at a grapheme-safe boundary so that the kept text plus a
 * marker naming the ref and the byte counts fit the budget. Without a store, or if saving fails,
 * the marker says how many bytes were lost instead: the call itself is never lost. The marker is
 * never cut: with a budget smaller than the marker, the content is the marker alone.
 */
export async function spillAndCut({
  text,
  budgetBytes,
  toolName,
  mediaType = 'text/plain; charset=utf-8',
  store,
}: SpillInput): Promise<SpillResult> {
  const total = utf8Bytes(text);
  if (total <= budgetBytes) return { content: text };
  let ref: string | undefined;
  let why = 'no artifact store to keep them';
  if (store) {
    try {
      ref = (
        await store.put({
          kind: `tool-result/${toolName}`,
          data: text,
          mediaType,
          label: `${toolName} result`,
        })
      ).ref;
    } catch {
      why = 'saving the whole result as an artifact failed';
    }
  }
  // The marker is measured with the largest counts it could show; the real counts are no longer,
  // so content + real marker still fits.
  const room = Math.max(0, budgetBytes - utf8Bytes(marker(total, total, total, ref, why)));
  const kept = cutUtf8(text, room);
  const keptBytes = utf8Bytes(kept);
  const result: SpillResult = {
    content: kept + marker(keptBytes, total, total - keptBytes, ref, why),
    cut: { bytes: total, keptBytes, lostBytes: ref ? 0 : total - keptBytes },
  };
  if (ref) result.spilled = { ref, bytes: total, keptBytes };
  return result;
}
