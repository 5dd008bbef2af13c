export { cutUtf8, utf8Bytes } from './cut-utf8.js';
export { type SpillInput, type SpillResult, spillAndCut } from './spill-and-cut.js';
export { splitBudget } from './split-budget.js';
export { toTranscript } from './to-transcript.js';
