/** bin/cli-bundle.mjs: the CLI's bundle of the sources as they are now. */
export function cliBundlePath(root?: string): string;
export function buildCliBundle(root?: string): Promise<string>;
