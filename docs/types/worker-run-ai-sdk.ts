// Type test: toAiSdkTools takes a run from the browser's connectWorker as well as a local run.
// A Worker run cannot list its tools synchronously, so it must be given them; without, it is an error.
import { connectWorker } from '@toolctx/browser/worker';
import { createRuntime, toolSchema } from '@toolctx/core';
import { toAiSdkTools } from '@toolctx/core/ai-sdk';
import type { ToolSet } from 'ai';
import { tools } from '../examples/tools.js';

const workerRun = connectWorker(new Worker(new URL('./tools.worker.ts', import.meta.url))).startRun();
export const fromWorker: ToolSet = toAiSdkTools(workerRun, { tools: tools.map(toolSchema) });
// @ts-expect-error a Worker run cannot list its tools: pass { tools }
export const unlisted: ToolSet = toAiSdkTools(workerRun);

export const fromLocal: ToolSet = toAiSdkTools(createRuntime({ tools }).startRun());
