export { alwaysFails, countSteps, exampleTools, publishNote, saveNote, slowWait } from './tools.js';
