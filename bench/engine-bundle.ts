import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles a bench entry that hosts the engine (engine-child.ts, profile-step.ts, web-host-child.ts) with its workers
 * beside it, as electron-vite bundles Electron's main process (electron.vite.config.ts; bin/cli-bundle.mjs does the
 * same for the CLI): plain JavaScript, packages loaded from node_modules, `./verdict-worker.js` and
 * `./export-half-worker.js` next to it. Run through tsx instead, the process and every worker it starts compile the
 * engine's TypeScript as they load it, memory Electron's main process does not hold (about 10 MB in the process and 15
 * MB more a worker: docs/performance.md, "Memory"). Returns the bundle's path; `outDir` must be two folders below the repository too.
 */
export async function bundleForBench(entry: string, outDir?: string): Promise<string> {
  const name = entry.replace(/^.*\//, '').replace(/\.ts$/, '');
  // Two folders down from the repository, as Electron's out/main: the engine finds package.json from there as in a build.
  outDir ??= join(REPO_ROOT, 'out', `bench-${name}`);
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: REPO_ROOT,
    logLevel: 'warn',
    plugins: [benchPathsKept],
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node22',
      reportCompressedSize: false,
      rollupOptions: {
        input: { [name]: fileURLToPath(new URL(entry, import.meta.url)), 'verdict-worker': join(REPO_ROOT, 'electron/engine/runs/verdict-worker.ts'), 'export-half-worker': join(REPO_ROOT, 'electron/engine/runs/export-half-worker.ts') },
        // Every chunk beside the entries, two levels below the repository, as the modules finding files from their own location expect.
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
  return join(outDir, `${name}.js`);
}

/** The bench's own files find their folder (tmp/, the scripts they start) where they are in the source tree. */
const benchPathsKept: Plugin = {
  name: 'bench-paths-kept',
  enforce: 'pre',
  transform(code, id) {
    if (!/[\\/]bench[\\/][^\\/]+\.ts$/.test(id)) return null;
    return { code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href)), map: null };
  },
};
