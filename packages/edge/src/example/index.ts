export {
  alwaysFails,
  connectCalendar,
  countSteps,
  exampleTools,
  publishNote,
  saveGenerated,
  saveNote,
  scheduleMeeting,
  slowWait,
} from './tools.js';
