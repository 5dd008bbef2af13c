import { MockLanguageModelV3 } from 'ai/test';

/** What the scripted agent is asked to do; also shown to the visitor. */
export const AGENT_TASK =
  'Gather three sources on toolctx, build a report from them, sign it and publish a note.';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** The text each tool's result gave the model so far, by tool name (latest wins); errors and denials marked. */
function resultsOf(prompt: Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt']) {
  const results = new Map<string, { failed: boolean; text: string }>();
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const { output } = part;
      const text =
        'value' in output
          ? typeof output.value === 'string'
            ? output.value
            : JSON.stringify(output.value)
          : output.type === 'execution-denied'
            ? `denied: ${output.reason ?? 'no reason given'}`
            : '';
      // A call the person denied in the AI SDK's approval did not succeed either.
      const failed = output.type.startsWith('error') || output.type === 'execution-denied';
      results.set(part.toolName, { failed, text });
    }
  }
  return results;
}

/**
 * A language model that needs no network: it reads the tool results in its prompt and asks for
 * the next step of `AGENT_TASK`, one tool call per step, as a real model would through the AI SDK.
 * `paceMs` is the pace `gather_sources` is asked to go at (the visitor's slider).
 */
export function scriptedModel(paceMs: () => number): MockLanguageModelV3 {
  let calls = 0;
  const say = (text: string) => ({
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: undefined },
    usage,
    warnings: [],
  });
  const call = (toolName: string, input: unknown) => ({
    content: [
      {
        type: 'tool-call' as const,
        toolCallId: `agent_${crypto.randomUUID()}_${++calls}`,
        toolName,
        input: JSON.stringify(input),
      },
    ],
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
    usage,
    warnings: [],
  });
  return new MockLanguageModelV3({
    provider: 'demo',
    modelId: 'scripted-agent',
    doGenerate: async ({ prompt }) => {
      const results = resultsOf(prompt);
      for (const [tool, result] of results) {
        if (result.failed) return say(`I stopped: ${tool} did not succeed (${result.text}).`);
      }
      const report = /art_[\w-]+/.exec(results.get('build_report')?.text ?? '')?.[0];
      const signature = /[0-9a-f]{64}/.exec(results.get('sign_message')?.text ?? '')?.[0];
      if (!results.has('gather_sources'))
        return call('gather_sources', { topic: 'toolctx', count: 3, paceMs: paceMs() });
      if (!results.has('build_report')) return call('build_report', { steps: 4, delayMs: 250 });
      if (!results.has('sign_message')) return call('sign_message', { message: `report ${report}` });
      if (!results.has('publish_note')) {
        return call('publish_note', {
          text: `Report ${report} is ready, signature ${signature?.slice(0, 16)}…`,
        });
      }
      return say(`Done: report ${report} built from 3 sources, signed and published as a note.`);
    },
  });
}
