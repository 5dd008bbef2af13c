export { alwaysFails, countSteps, exampleTools, slowWait } from './tools.js';
