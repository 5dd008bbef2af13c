// Tool lists in the shapes OpenAI and Anthropic expect; run the calls the model asks for through
// a toolctx run, so each gets its signal, progress, budget and events.
import { createRuntime, toAnthropicTools, toOpenAiTools } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { tools } from './tools.js';

// `summarise` saves an artifact: in memory here, for as long as the process runs.
const runtime = createRuntime({ tools, artifacts: createMemoryArtifactStore() });
const run = runtime.startRun();

const response = await fetch('https://api.openai.com/v1/chat/completions', {
  method: 'POST',
  headers: { authorization: `Bearer ${process.env.OPENAI_API_KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    model: 'gpt-5-mini',
    messages: [{ role: 'user', content: 'How many words are in "to be or not to be"?' }],
    tools: toOpenAiTools(runtime),
  }),
});
interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}
const { choices } = (await response.json()) as { choices: [{ message: { tool_calls?: ToolCall[] } }] };
for (const call of choices[0].message.tool_calls ?? []) {
  const result = await run.call({
    tool: call.function.name,
    args: JSON.parse(call.function.arguments),
    toolCallId: call.id,
  });
  console.log(result.ok ? result.content : result.error.message); // `content` goes back to the model
}

// Anthropic's Messages API takes `tools: toAnthropicTools(runtime)` the same way.
console.log(toAnthropicTools(runtime).map((tool) => tool.name));
