/** What the operation builders of one plan share. */
import type { KindRegistry } from '../../resources/index.js';
import type { MetadataWriter } from './ownership-metadata.js';
import type { Replacements } from './replacements.js';
import type { TokenCapture } from './token-capture.js';
import type { WrittenStates } from '../written-state.js';

export interface OperationContext {
  readonly kinds: KindRegistry;
  readonly replacements: Replacements;
  readonly capture: TokenCapture;
  readonly metadata: MetadataWriter;
  readonly written: WrittenStates;
}
