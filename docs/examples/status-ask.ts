// A tool that asks its user mid-call: the widget shows the ask as a form on the call's line and
// answers it through the run. The page has <div id="status"> and <div id="events">.
import { attachStatus } from '@toolctx/browser/status';
import { createRuntime, defineTool } from '@toolctx/core';
import { z } from 'zod';

const scheduleMeeting = defineTool({
  name: 'schedule_meeting',
  description: 'Schedules a meeting, asking the user when.',
  inputSchema: z.object({ topic: z.string() }),
  async execute({ topic }, ctx) {
    const answer = await ctx.ask({
      message: `When shall we meet about “${topic}”?`,
      schema: {
        type: 'object',
        properties: {
          day: { type: 'string', format: 'date', title: 'Day' },
          minutes: { type: 'integer', title: 'Length (minutes)', minimum: 15, maximum: 120, default: 30 },
        },
        required: ['day'],
      },
    });
    return answer.action === 'accept' ? { scheduled: answer.values } : { scheduled: false };
  },
});

// The run's own `answer(askId, answer)` sends what the person filled in: the form needs no wiring.
const run = createRuntime({ tools: [scheduleMeeting] }).startRun();
attachStatus(document.querySelector('#status')!, run);

// A source that cannot answer on its own (here the bare event stream) takes `actions.answer`; a
// refusal it resolves with ({ taken: false, error }) is shown in the form, which stays for a
// corrected answer.
attachStatus(document.querySelector('#events')!, run.events, {
  actions: { answer: (askId, answer) => run.answer(askId, answer) },
});
const result = await run.call({ tool: 'schedule_meeting', args: { topic: 'the launch' } });
console.log(result.ok ? result.value : result.error.message);
