import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/**
 * The SDK's web-standard transport, telling when a request has its answer. A POST's stream can end
 * before that (a handler that asks for polling closes it), so the session keeps a request id
 * reserved until its answer went out, not until its stream ended.
 */
export class AnsweringTransport extends WebStandardStreamableHTTPServerTransport {
  /** Called with a request's id once its answer was sent, or failed to be. */
  onAnswered?: (requestId: RequestId) => void;
  /** Awaited with a request's id before its answer is sent: what must be done before the client can act on it. */
  beforeAnswer?: (requestId: RequestId) => Promise<void>;

  override async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const id = 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined;
    try {
      if (id !== undefined) await this.beforeAnswer?.(id);
      await super.send(message, options);
    } finally {
      if (id !== undefined) this.onAnswered?.(id);
    }
  }
}
