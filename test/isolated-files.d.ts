/** The test files that keep a module graph of their own (test/isolated-files.js). */
export declare const ISOLATED_TEST_FILES: string[];
