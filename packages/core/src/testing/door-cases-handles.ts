import { expect } from 'vitest';
import { type DoorCases, freshKey, needs, until } from './door-suite-kit.js';

/**
 * A call is a durable thing: its handle says where it is, keeps its result once settled (also for
 * a second connection to the run, as after a reload), and after its host's restart says honestly
 * that it was cut off.
 */
export const handleCases: DoorCases = (kit) => {
  const handles = kit.supplies.handles === true;
  return [
    needs(
      kit,
      handles,
      'call handles',
      "a call's handle: working while it runs, then settled with its status and result",
      () =>
        kit.withClients(async (open) => {
          const client = await open();
          const status = (id: string) => client.callStatus!(id);
          const waiting = freshKey('call');
          const stop = new AbortController();
          const running = client.call(
            'door_wait_for_abort',
            { key: freshKey('handle') },
            {
              signal: stop.signal,
              toolCallId: waiting,
            },
          );
          await until(async () => (await status(waiting))?.status === 'working', 'the call is working');
          expect((await status(waiting))?.result).toBeUndefined();
          stop.abort();
          const cancelled = await running;
          expect(await status(waiting)).toMatchObject({
            toolCallId: waiting,
            status: 'cancelled',
            result: cancelled.result,
          });

          const echoId = freshKey('call');
          const echo = await client.call('door_echo', { text: 'kept' }, { toolCallId: echoId });
          expect(await status(echoId)).toMatchObject({
            tool: 'door_echo',
            status: 'completed',
            result: echo.result,
          });
          const failId = freshKey('call');
          const failed = await client.call('door_fail', {}, { toolCallId: failId });
          expect(await status(failId)).toMatchObject({ status: 'failed', result: failed.result });
          expect(await status(freshKey('never'))).toBeUndefined();
        }),
    ),
    needs(
      kit,
      handles,
      'call handles',
      "after a reconnect, a settled call's handle still has its result",
      () =>
        kit.withClients(async (open) => {
          const client = await open();
          const id = freshKey('call');
          const echo = await client.call('door_echo', { text: 'after a reload' }, { toolCallId: id });
          const again = await client.reconnect!();
          expect(await again.callStatus!(id)).toMatchObject({ status: 'completed', result: echo.result });
        }),
    ),
    needs(
      kit,
      handles && kit.supplies.restarts === true,
      'restart of its host',
      'a call running when its host restarts is settled as interrupted (retryable) when the run wakes',
      () =>
        kit.withClients(async (open) => {
          const client = await open();
          const id = freshKey('call');
          // Its answer is cut with its host, and a door may leave that stream hanging: the case
          // reads the handle, never the answer, and lets the stream go at the end.
          const hangUp = new AbortController();
          void client
            .call(
              'door_wait_for_abort',
              { key: freshKey('restart') },
              { toolCallId: id, signal: hangUp.signal },
            )
            .catch(() => {});
          await until(
            async () => (await client.callStatus!(id))?.status === 'working',
            'the call is working',
          );
          await client.restart!();
          await until(async () => (await client.callStatus!(id))?.status === 'failed', 'the call is settled');
          expect((await client.callStatus!(id))?.result).toMatchObject({
            ok: false,
            error: { kind: 'interrupted', retryable: true },
          });
          hangUp.abort();
        }),
    ),
  ];
};
