import type { ErrorInfo } from '../errors.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { DoorDeclaration } from './door.js';

/** What a run needs from its runtime. */
export interface RuntimeCore {
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly door: DoorDeclaration;
  unknownTool(name: string): ErrorInfo;
}
