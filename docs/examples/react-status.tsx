// React 19: <toolctx-status> in JSX, typed by @toolctx/browser/react. React sets `source` and
// `options` as the element's properties, so the run goes in as the object it is. Hiding the widget
// and showing it again (a route change, a conditional render) shows each call where it is: a call
// waiting for approval still has Approve and Deny. The page has <div id="root">.
import '@toolctx/browser/react';
import { type AttachStatusOptions, defineStatusElement } from '@toolctx/browser/status';
import { createRuntime, defineTool, type Run } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';

// Before the first render: React 19 sets a prop as a property only when the element has it.
defineStatusElement();

const publishNote = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a short note. Needs a person’s approval.',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});
const run = createRuntime({ tools: [publishNote], approval: createMemoryApprovalPort() }).startRun();
const note = { text: 'Hello from React' };

// Read each time the widget attaches: at every mount.
const options: AttachStatusOptions = {
  // Events carry no arguments: the page says what it asks for ("Publish a note: text “Hello from React”").
  actions: { details: () => ({ title: 'Publish a note', args: note }) },
};

function App({ run }: { run: Run }) {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown((was) => !was)}>
        {shown ? 'Hide status' : 'Show status'}
      </button>
      {shown && <toolctx-status source={run} options={options} />}
    </>
  );
}

createRoot(document.querySelector('#root')!).render(<App run={run} />);
// The call answers `approval-pending` at once and waits in the run; Approve or Deny on the widget
// decides it, through the run's `resume`.
await run.call({ tool: 'publish_note', args: note });
