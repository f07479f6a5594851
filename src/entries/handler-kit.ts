/**
 * `tool-capabilities/handler-kit`: what handler modules use. Tool errors the model can read,
 * context checks, crash-safe JSON stores with a cross-process lock, small text helpers.
 * @module
 */

export {
  appendJsonLines,
  type FileLockOptions,
  readJsonFile,
  readJsonLines,
  type StoreWriteOptions,
  updateJsonFile,
  type WriteFileAtomicOptions,
  withFileLock,
  writeFileAtomic,
} from '../execute/file-store.js';
export {
  createId,
  encodeFileName,
  requireContextString,
  scoreText,
  storeFile,
  todayUtc,
  tokenizeWords,
} from '../execute/handler-kit.js';
export { ToolError } from '../execute/tool-error.js';
export type {
  ToolContext,
  ToolDispatcher,
  ToolHandler,
  ToolHandlerOptions,
} from '../execute/types.js';
