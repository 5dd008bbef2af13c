// The AI SDK calls toolctx tools through a run: its abortSignal cancels the tool, the model's
// toolCallId names the call in the run's events, and the model reads the budgeted transcript copy.
import { createRuntime } from '@toolctx/core';
import { toAiSdkTools } from '@toolctx/core/ai-sdk';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { generateText, stepCountIs } from 'ai';
import { tools } from './tools.js';

// `summarise` saves an artifact: in memory here, for as long as the process runs.
const runtime = createRuntime({ tools, artifacts: createMemoryArtifactStore() });
// No person answers in this loop: a tool's ctx.ask fails at once (unsupported) instead of waiting.
const run = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' }, canAsk: false });
const { text } = await generateText({
  model: 'openai/gpt-5-mini', // any AI SDK model
  tools: toAiSdkTools(run), // the run's tools; { names: [...] } narrows them
  stopWhen: stepCountIs(5),
  prompt: 'How many words are in "to be or not to be"?',
});
await run.end();
console.log(text);
