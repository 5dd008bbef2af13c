import type { Identity } from '@toolctx/core';

/**
 * The one user of the local demo. The demo has no sign-in because it only listens on 127.0.0.1:
 * whoever reaches it is the person at this machine. The Worker sets it server-side (never from a
 * request body); the page's Web Worker uses the same one so both columns share an artifact scope
 * shape.
 */
export const localIdentity: Identity = { tenant: 'demo', principal: 'local', conversationId: 'demo' };
