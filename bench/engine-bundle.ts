import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Two folders down from the repository, as Electron's out/main: the engine finds package.json from there as it does in a build. */
const BUNDLE_DIR = fileURLToPath(new URL('../out/bench-engine/', import.meta.url));

/**
 * Bundles a bench entry that hosts the engine (engine-child.ts, profile-step.ts) with the verdict worker beside it,
 * as electron-vite bundles Electron's main process (electron.vite.config.ts): plain JavaScript, packages loaded from
 * node_modules, `./verdict-worker.js` next to the bundle. Run through tsx instead, the process and every worker it
 * starts compile the engine's TypeScript as they load it, memory Electron's main process does not hold (about 10 MB
 * in the process and 15 MB more a worker: docs/performance.md, "Memory"). Returns the bundle's path; `outDir` other
 * than the default only for a test (the engine then finds no package.json, and says it is version 0.0.0-dev).
 */
export async function bundleForBench(entry: string, outDir = BUNDLE_DIR): Promise<string> {
  const name = entry.replace(/^.*\//, '').replace(/\.ts$/, '');
  await build({
    entryPoints: {
      [name]: fileURLToPath(new URL(entry, import.meta.url)),
      'verdict-worker': fileURLToPath(new URL('../electron/engine/runs/verdict-worker.ts', import.meta.url)),
    },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    logLevel: 'warning',
    plugins: [benchPathsKept],
  });
  return join(outDir, `${name}.js`);
}

/** The bench's own files find their folder (tmp/, the scripts they start) where they are in the source tree. */
const benchPathsKept: Plugin = {
  name: 'bench-paths-kept',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]bench[\\/][^\\/]+\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
      loader: 'ts',
    }));
  },
};
