// The size of the renderer bundle a user's app loads: every .js and .css file the build wrote, raw and gzipped
// (zlib's default level, what a web server sends). `npm run build` prints it; `npm run bench` keeps it in the
// README's table, so a dependency that doubles the bundle shows up in a review.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export interface BundleSize {
  files: number;
  bytes: number;
  gzipBytes: number;
}

/** Sums the .js and .css files under `dir` (the renderer's output folder), walking its subfolders. */
export function measureBundle(dir: string): BundleSize {
  const size: BundleSize = { files: 0, bytes: 0, gzipBytes: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css)$/.test(entry.name)) continue;
    const content = readFileSync(join(entry.parentPath, entry.name));
    size.files += 1;
    size.bytes += content.length;
    size.gzipBytes += gzipSync(content).length;
  }
  return size;
}

export function describeBundle(size: BundleSize): string {
  const kb = (bytes: number) => `${(bytes / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} kB`;
  return `${kb(size.bytes)}, ${kb(size.gzipBytes)} gzipped (${size.files} files of JS and CSS)`;
}

/** Prints the bundle's size once the renderer build has written it. */
export function rendererBundleSize(): Plugin {
  let outDir = '';
  return {
    name: 'matchdesk-renderer-bundle-size',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      console.log(`Renderer bundle: ${describeBundle(measureBundle(outDir))}`);
    },
  };
}
