// Types of scripts/build-python.mjs for the TypeScript that imports it (its test).
export declare const PYTHON_BUILD_INPUTS: readonly string[];
export declare const pythonOutDir: string;
export declare function buildPython(options?: { quiet?: boolean; outDir?: string }): Promise<void>;
