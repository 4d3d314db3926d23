/** Schemas of the few Electron IPC calls that main itself answers (not the engine). */
import { z } from 'zod';

/** `sandglass:save-dialog`: a native save dialog writing these bytes. */
export const SaveFileParams = z.strictObject({
  defaultName: z.string(),
  base64: z.string(),
});
