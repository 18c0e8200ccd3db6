/**
 * Moved to src/model/rule.ts (rule and message types sit with the model, so every layer that
 * reports or reads findings can name them without importing the engine). This re-export keeps
 * modules written against the old path compiling; import from '../model/rule.js' in new code.
 */
export type * from '../model/rule.js';
