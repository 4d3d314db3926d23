// Types of scripts/fingerprint.mjs for the TypeScript that imports it.
export declare function fingerprint(
  root: string,
  entries: readonly string[],
  skipFile?: (name: string) => boolean,
): string;
