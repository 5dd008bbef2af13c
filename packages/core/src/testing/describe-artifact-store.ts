import { describe } from 'vitest';
import { concurrencyCases } from './artifact-cases-concurrency.js';
import { fieldCases } from './artifact-cases-fields.js';
import { expiryCases, integrityCases, retentionCases } from './artifact-cases-lifecycle.js';
import { listCases } from './artifact-cases-list.js';
import { scopeCases } from './artifact-cases-scope.js';
import { scopePropertyCases } from './artifact-cases-scope-property.js';
import { settledCases } from './artifact-cases-settled.js';
import { streamCases } from './artifact-cases-stream.js';
import { verbCases } from './artifact-cases-verbs.js';
import type { ArtifactCaseKit, ArtifactStoreSuiteOptions } from './artifact-suite-kit.js';
import { createTestClock, registerCases } from './suite-cases.js';

/**
 * Registers the `ArtifactStore` conformance cases with vitest, run through the raw contract with
 * a fresh store per case: every verb for text, binary, JSON and empty payloads; meta fields and
 * digests; kinds, labels and media types that no header can carry or that pass their limits
 * (refused naming the field); unknown and malformed refs; paging with cursors under concurrent puts and deletes;
 * expiry by the injected clock; retention caps, also under concurrent puts; scope isolation (fixed lookalikes, and a
 * fast-check property over random hostile scopes and operation sequences); streaming (or its refusal);
 * integrity on `get` when a `corrupt` hook is given; and, through a runtime over the store, that a
 * put in flight when its call is cancelled leaves nothing behind.
 *
 * With retention caps, repeat the limits `create` configured in `capabilities.retention`, and
 * leave room for the other cases: `maxCountPerScope >= 110`, `maxArtifactBytes >= 100_000`, and
 * `maxArtifactBytes > maxBytesPerScope / 2` (so two large puts pass the byte cap). The caps must
 * hold exactly under concurrent puts, unless `retention.overshoot` declares how far past them the
 * store may go.
 *
 * @example
 * ```ts
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * import { describeArtifactStore } from '@toolctx/core/testing';
 *
 * describeArtifactStore('memory', {
 *   create: ({ clock }) => createMemoryArtifactStore({ clock }),
 *   capabilities: { streaming: true },
 * });
 * ```
 */
export function describeArtifactStore(name: string, options: ArtifactStoreSuiteOptions): void {
  const limits = options.capabilities.retention;
  if (
    limits &&
    !(
      limits.maxCountPerScope >= 110 &&
      limits.maxArtifactBytes >= 100_000 &&
      2 * limits.maxArtifactBytes > limits.maxBytesPerScope
    )
  ) {
    throw new Error(
      `describeArtifactStore('${name}'): retention limits leave no room for the other cases; use maxCountPerScope >= 110, maxArtifactBytes >= 100000 and maxArtifactBytes > maxBytesPerScope / 2.`,
    );
  }
  const kit: ArtifactCaseKit = {
    options,
    fresh: async () => {
      const clock = createTestClock();
      return { store: await options.create({ clock: clock.now }), clock };
    },
  };
  const cases = [
    verbCases,
    fieldCases,
    listCases,
    expiryCases,
    retentionCases,
    scopeCases,
    scopePropertyCases,
    streamCases,
    integrityCases,
    settledCases,
    concurrencyCases,
  ];
  describe(`ArtifactStore conformance: ${name}`, () => {
    registerCases(
      cases.flatMap((make) => make(kit)),
      options.expectedFailures,
    );
  });
}
