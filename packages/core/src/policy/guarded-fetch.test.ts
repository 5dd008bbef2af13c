// No network here: every request goes to a fake fetchImpl that records what it was asked and
// answers from a routing table.
import { describe, expect, it } from 'vitest';
import { type ErrorInfo, ToolctxError } from '../errors.js';
import { createGuardedFetch, MAX_REDIRECTS } from './guarded-fetch.js';

interface Seen {
  url: string;
  init: RequestInit;
}

function fakeFetch(routes: Record<string, () => Response>) {
  const seen: Seen[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    seen.push({ url, init });
    const route = routes[url];
    return route ? route() : new Response('not found', { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, seen };
}

const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });

async function refusal(promise: Promise<unknown>): Promise<ErrorInfo> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolctxError);
  return (error as ToolctxError).info;
}

describe('createGuardedFetch', () => {
  it('fetches an allowed URL with redirect: manual and returns the response', async () => {
    const { fetchImpl, seen } = fakeFetch({ 'https://example.com/a': () => new Response('hello') });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    const response = await guarded('https://example.com/a');
    expect(await response.text()).toBe('hello');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.init.redirect).toBe('manual');
  });

  it('refuses a refused URL before any request, with the policy ErrorInfo', async () => {
    const { fetchImpl, seen } = fakeFetch({});
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    const info = await refusal(guarded('http://169.254.169.254/latest/meta-data/iam?token=x'));
    expect(info).toMatchObject({
      kind: 'policy-refused',
      details: { reason: 'metadata', host: '169.254.169.254' },
    });
    expect(seen).toHaveLength(0);
  });

  it('follows redirects itself and re-checks every Location', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'https://example.com/start': redirect('/middle', 301),
      'https://example.com/middle': redirect('https://cdn.example.com/end', 307),
      'https://cdn.example.com/end': () => new Response('done'),
    });
    const guarded = createGuardedFetch({ policy: { allowedDomains: ['example.com'] }, fetchImpl });
    expect(await (await guarded('https://example.com/start')).text()).toBe('done');
    expect(seen.map((s) => s.url)).toEqual([
      'https://example.com/start',
      'https://example.com/middle',
      'https://cdn.example.com/end',
    ]);
  });

  it('refuses a redirect into the private network, naming the redirecting host', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'https://example.com/go': redirect('http://127.0.0.1:8080/admin'),
    });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    const info = await refusal(guarded('https://example.com/go'));
    expect(info.details).toMatchObject({
      reason: 'private-network',
      host: '127.0.0.1',
      redirectedFrom: 'example.com',
    });
    expect(info.message).toContain('example.com');
    expect(seen).toHaveLength(1);
  });

  it('gives up after the maximum number of redirects', async () => {
    const { fetchImpl, seen } = fakeFetch({ 'https://example.com/loop': redirect('/loop') });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    const info = await refusal(guarded('https://example.com/loop'));
    expect(info.details?.reason).toBe('too-many-redirects');
    expect(seen).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('turns a POST into a GET on 303 and drops credentials across origins', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'https://example.com/form': redirect('https://other.example.net/result', 303),
      'https://other.example.net/result': () => new Response('ok'),
    });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    await guarded('https://example.com/form', {
      method: 'POST',
      body: 'a=1',
      headers: { authorization: 'Bearer secret', 'content-type': 'text/plain', 'x-keep': '1' },
    });
    const second = seen[1]!;
    expect(second.init.method).toBe('GET');
    expect(second.init.body).toBeNull();
    const headers = new Headers(second.init.headers);
    expect(headers.get('authorization')).toBeNull();
    expect(headers.get('content-type')).toBeNull();
    expect(headers.get('x-keep')).toBe('1');
  });

  it('keeps method and body on 307, and refuses to replay a streamed body', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'https://example.com/put': redirect('https://example.com/put2', 307),
      'https://example.com/put2': () => new Response('ok'),
    });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    await guarded('https://example.com/put', { method: 'PUT', body: 'data' });
    expect(seen[1]?.init).toMatchObject({ method: 'PUT', body: 'data' });
    const stream = new ReadableStream({ start: (c) => c.close() });
    const info = await refusal(guarded('https://example.com/put', { method: 'PUT', body: stream }));
    expect(info.details?.reason).toBe('unreplayable-redirect');
  });

  it('returns the redirect itself when the caller asked for redirect: manual', async () => {
    const { fetchImpl, seen } = fakeFetch({ 'https://example.com/r': redirect('http://10.0.0.1/') });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    const response = await guarded('https://example.com/r', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(seen).toHaveLength(1);
  });

  it('refuses a redirect the platform hides (an opaque redirect)', async () => {
    const opaque = Object.defineProperty(new Response(null, { status: 200 }), 'type', {
      value: 'opaqueredirect',
    });
    const { fetchImpl } = fakeFetch({ 'https://example.com/hidden': () => opaque });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    expect((await refusal(guarded('https://example.com/hidden'))).details?.reason).toBe('opaque-redirect');
  });

  it('asks beforeSend after the URL check and refuses with its ErrorInfo', async () => {
    const { fetchImpl, seen } = fakeFetch({});
    const taint: ErrorInfo = {
      kind: 'policy-refused',
      message: 'Blocked by the trifecta.',
      retryable: false,
      details: { policy: 'trifecta' },
    };
    let asked = 0;
    const guarded = createGuardedFetch({
      policy: {},
      fetchImpl,
      beforeSend: () => {
        asked++;
        return taint;
      },
    });
    expect(await refusal(guarded('https://example.com/'))).toEqual(taint);
    await refusal(guarded('http://localhost/'));
    expect(asked).toBe(1);
    expect(seen).toHaveLength(0);
  });

  it('passes the call signal, combined with init.signal', async () => {
    const { fetchImpl, seen } = fakeFetch({ 'https://example.com/': () => new Response('x') });
    const call = new AbortController();
    const own = new AbortController();
    const guarded = createGuardedFetch({ policy: {}, fetchImpl, signal: () => call.signal });

    await guarded('https://example.com/');
    expect(seen[0]?.init.signal).toBe(call.signal);

    await guarded('https://example.com/', { signal: own.signal });
    const combined = seen[1]?.init.signal as AbortSignal;
    expect(combined.aborted).toBe(false);
    own.abort();
    expect(combined.aborted).toBe(true);

    await guarded('https://example.com/', { signal: new AbortController().signal });
    const third = seen[2]?.init.signal as AbortSignal;
    call.abort();
    expect(third.aborted).toBe(true);
  });

  it('accepts a Request, keeping its method, headers and body', async () => {
    const { fetchImpl, seen } = fakeFetch({ 'https://example.com/r': () => new Response('ok') });
    const guarded = createGuardedFetch({ policy: {}, fetchImpl });
    await guarded(new Request('https://example.com/r', { method: 'DELETE', headers: { 'x-a': 'b' } }));
    expect(seen[0]?.init.method).toBe('DELETE');
    expect(new Headers(seen[0]?.init.headers).get('x-a')).toBe('b');
    const posted = new Request('https://example.com/r', { method: 'POST', body: 'payload' });
    await guarded(posted);
    expect(new TextDecoder().decode(seen[1]?.init.body as ArrayBuffer)).toBe('payload');
    const info = await refusal(guarded(new Request('http://192.168.0.1/')));
    expect(info.details?.reason).toBe('private-network');
  });
});
