/**
 * The longest `kind`, `label` and `mediaType` an artifact store keeps, in UTF-16 code units (what
 * `String.length` counts). Each ends up in an HTTP header when the artifact is served (the media
 * type as `content-type`, the kind as `x-toolctx-artifact-kind`, the label as the download's file
 * name), and in KV's and R2's metadata, which have byte limits of their own.
 *
 * @example
 * ```ts
 * import { artifactFieldLimits } from '@toolctx/core';
 * artifactFieldLimits.label; // 256
 * ```
 */
export const artifactFieldLimits: Readonly<{ kind: number; label: number; mediaType: number }> =
  Object.freeze({ kind: 256, label: 256, mediaType: 256 });
