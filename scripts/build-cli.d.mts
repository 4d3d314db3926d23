// Types of scripts/build-cli.mjs for the TypeScript that imports it (bench/cli).
export declare const CLI_SOURCES: readonly string[];
export declare const CLI_OUT: string;
export declare const CLI_STAMP: string;
export declare function cliSourcesFingerprint(root?: string): string;
export declare function readCliStamp(
  root?: string,
): { sources: string; oneShot?: string } | undefined;
export declare function builtCliFingerprint(root?: string): string | undefined;
export declare function buildCli(root?: string): Promise<void>;
