export {
  alwaysFails,
  countSteps,
  exampleTools,
  publishNote,
  saveGenerated,
  saveNote,
  slowWait,
} from './tools.js';
