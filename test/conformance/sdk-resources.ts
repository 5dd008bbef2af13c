// The resource fixtures of the conformance suite, added with the SDK's own API to the McpServer
// through the public hooks (the server serveMcp returns on Node, McpSession's configureServer on
// the Worker), next to the artifact resources serveMcp registers itself. They are fixtures, not
// artifacts: fixed text, a fixed PNG, a template, and a resource to subscribe to. Both set-ups
// call this one function.
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';

/** A 1×1 PNG. */
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function addConformanceResources(server: McpServer): McpServer {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A fixed text resource.', mimeType: 'text/plain' },
    (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A fixed PNG image.', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: png }] }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients may subscribe to.', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }] }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data for an id.', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
  // McpServer has no subscriptions: the low-level server takes them, as the SDK documents.
  const subscribed = new Set<string>();
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler('resources/subscribe', ({ params }) => {
    subscribed.add(params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', ({ params }) => {
    subscribed.delete(params.uri);
    return {};
  });
  return server;
}
