/** Node-only edges of the VFS: copying host directories in and subtrees out. */
export {
  importHostDir,
  type ImportContents,
  type ImportOptions,
  type ImportResult,
} from './hostImport.js';
export { exportTree, type ExportOptions, type ExportResult } from './hostExport.js';
