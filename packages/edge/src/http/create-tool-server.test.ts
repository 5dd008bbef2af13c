import type { ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { memoryServer } from '../test-utils/server.js';
import { allMessages, eventsOf, messagesUntil } from '../test-utils/sse.js';

describe('HTTP door: tools, runs and calls', () => {
  it('lists tools with JSON Schemas, and only read tools in the plan phase', async () => {
    const { send } = memoryServer();
    const all = (await (await send('/tools')).json()) as { tools: { name: string; inputSchema: unknown }[] };
    expect(all.tools.map((t) => t.name)).toEqual([
      'count_steps',
      'always_fails',
      'slow_wait',
      'save_note',
      'publish_note',
      'save_generated',
      'schedule_meeting',
      'connect_calendar',
    ]);
    expect(all.tools[0]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { steps: { type: 'integer' } },
    });
    const plan = (await (await send('/tools?phase=plan')).json()) as { tools: unknown[] };
    expect(plan.tools).toHaveLength(5); // save_note, publish_note and save_generated write
    const bad = await send('/tools?phase=later');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ kind: 'bad-request', retryable: false });
  });

  it('refuses a request without identity with 401 and an ErrorInfo', async () => {
    const { send } = memoryServer();
    const response = await send('/tools', { headers: { authorization: 'Bearer mallory' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      kind: 'unauthenticated',
      message:
        "This server's authenticate found no identity in the request: send the credentials it expects (such as Authorization: Bearer <token>).",
      retryable: false,
    });
  });

  it('starts a run, with or without a body, and answers its id', async () => {
    const { send, post } = memoryServer();
    const empty = await send('/runs', { method: 'POST' });
    expect(empty.status).toBe(201);
    const info = (await empty.json()) as { runId: string; phase: string; lastSeq: number };
    expect(info).toMatchObject({ phase: 'act', ended: false, lastSeq: 1 });
    expect(empty.headers.get('location')).toBe(`/runs/${info.runId}`);
    const planned = await post('/runs', { sessionId: 's1', phase: 'plan', state: { locale: 'fr' } });
    expect(await planned.json()).toMatchObject({ sessionId: 's1', phase: 'plan' });
  });

  it('calls a tool and answers its ToolResult as JSON; a failure is data with a 200', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const okResponse = await post(`/runs/${runId}/calls`, {
      tool: 'count_steps',
      args: { steps: 2, delayMs: 0 },
    });
    expect(okResponse.status).toBe(200);
    expect(okResponse.headers.get('x-toolctx-call-id')).toMatch(/^call_/);
    expect(await okResponse.json()).toEqual({ ok: true, value: { steps: 2 }, content: '{"steps":2}' });
    const failed = (await (
      await post(`/runs/${runId}/calls`, { tool: 'always_fails', args: {} })
    ).json()) as ToolResult;
    expect(failed).toEqual({
      ok: false,
      error: {
        kind: 'tool-error',
        message: 'always_fails failed because it was asked to.',
        retryable: false,
      },
    });
    const invalid = (await (
      await post(`/runs/${runId}/calls`, { tool: 'slow_wait', args: { ms: 'x' } })
    ).json()) as ToolResult;
    expect(invalid.ok === false && invalid.error.kind).toBe('args-invalid');
  });

  it('streams a call as SSE: its events in order, then a result message', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const response = await post(
      `/runs/${runId}/calls`,
      { tool: 'count_steps', args: { steps: 3, delayMs: 1 }, toolCallId: 'c1' },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const messages = await allMessages(response);
    expect(messages.map((m) => m.event)).toEqual([
      'tool.started',
      'tool.progress',
      'tool.progress',
      'tool.progress',
      'tool.finished',
      'result',
    ]);
    const events = eventsOf(messages);
    expect(events.every((e) => e.callId === 'c1' && e.runId === runId)).toBe(true);
    expect(messages.slice(0, -1).map((m) => Number(m.id))).toEqual(events.map((e) => e.seq));
    expect(JSON.parse(messages.at(-1)!.data)).toEqual({
      ok: true,
      value: { steps: 3 },
      content: '{"steps":3}',
    });
  });

  it('ends a run with DELETE; a later call is a 409 and ending again changes nothing', async () => {
    const { send, post, startRun } = memoryServer();
    const runId = await startRun();
    const ended = await send(`/runs/${runId}`, { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toMatchObject({ runId, ended: true, lastSeq: 2 });
    const late = await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1 } });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ kind: 'conflict' });
    expect((await send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('aborts the tool when the reader of a streamed call cancels the body', async () => {
    const { send, post, startRun } = memoryServer();
    const runId = await startRun();
    const response = await post(
      `/runs/${runId}/calls`,
      { tool: 'slow_wait', args: { ms: 60_000 }, toolCallId: 'dropped' },
      { headers: { accept: 'text/event-stream' } },
    );
    await messagesUntil(response, (m) => m.event === 'tool.progress');
    const events = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.failed'),
    );
    expect(events.at(-1)).toMatchObject({ callId: 'dropped', data: { error: { kind: 'aborted' } } });
  });

  it('cancels a running call from a second request', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const pending = post(`/runs/${runId}/calls`, {
      tool: 'slow_wait',
      args: { ms: 60_000 },
      toolCallId: 'long',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const cancel = await post(`/runs/${runId}/calls/long/cancel`, {});
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toEqual({ callId: 'long', cancelled: true });
    const result = (await (await pending).json()) as ToolResult;
    expect(result.ok === false && result.error.kind).toBe('aborted');
    const again = await post(`/runs/${runId}/calls/long/cancel`, {});
    expect(again.status).toBe(404);
  });

  it('aborts the tool when the client of a streamed call disconnects', async () => {
    const { send, post, startRun } = memoryServer();
    const runId = await startRun();
    const client = new AbortController();
    const response = await post(
      `/runs/${runId}/calls`,
      { tool: 'slow_wait', args: { ms: 60_000 }, toolCallId: 'gone' },
      { headers: { accept: 'text/event-stream' }, signal: client.signal },
    );
    // Hang up once the tool is running. Only the request's signal fires here (the body is left
    // unread, not cancelled), so this checks the door's watch on request.signal alone.
    await messagesUntil(response, (m) => m.event === 'tool.progress', { cancel: false });
    client.abort();
    // The run goes on; its record shows the call cancelled by its caller, not by the run ending.
    const events = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.failed'),
    );
    const failed = events.find((e) => e.type === 'tool.failed');
    expect(failed?.callId).toBe('gone');
    expect(failed?.data).toMatchObject({
      error: { kind: 'aborted', message: 'The call was cancelled by its caller.' },
    });
    expect((failed!.data as { durationMs: number }).durationMs).toBeLessThan(10_000);
  });
});
