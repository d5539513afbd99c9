// The CLI as one bundle of its sources, which bin/matchdesk.mjs runs (and the tests and the bench start): a process
// started from it loads a few plain JavaScript files, where tsx transforms and loads every module of the engine again
// in the process and in each of its worker threads, about 15 MB more a thread (docs/performance.md, "Memory").
// `out/cli-bundle-<hash of the sources>/`, built with vite (a devDependency) the first time these sources are run, so
// it is never stale. Run as a script (`node bin/cli-bundle.mjs`), it builds the bundle if it is missing and prints its
// entry: bin/matchdesk.mjs builds it so, in a process of its own, so the CLI's process never holds the build's memory.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = join(import.meta.dirname, '..');
/** What the bundle is made of; package.json for the version the CLI reports. */
const SOURCES = ['electron', 'shared', 'package.json'];
/**
 * Bundles of other sources are removed when one is built, except the newest few and those younger than a day: a CLI
 * still running from one (a browser host left open) starts its verdict worker and loads its commands from that folder.
 */
const KEPT_BUNDLES = 3;
const KEPT_BUNDLE_MS = 24 * 60 * 60 * 1000;

/** The bundle's entry for the sources as they are now; it may not be built yet. */
export function cliBundlePath(root = REPO_ROOT) {
  return join(root, 'out', `cli-bundle-${sourcesHash(root)}`, 'matchdesk.js');
}

/**
 * The bundle's entry (out/cli-bundle-<hash>/matchdesk.js), built here first if these sources have none. Two levels
 * below the repository like the app's own bundle (out/main), so the modules that find package.json, resources/ or
 * out/renderer from their own location find them; the workers' entries are built beside it.
 */
export async function buildCliBundle(root = REPO_ROOT) {
  const entry = cliBundlePath(root);
  if (existsSync(entry)) return entry;
  const dir = join(entry, '..');
  // Built aside and renamed into place: another process building the same sources meanwhile is harmless.
  const aside = `${dir}-${process.pid}`;
  const { build } = await import('vite');
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir: aside,
      emptyOutDir: true,
      target: 'node22',
      reportCompressedSize: false,
      rollupOptions: {
        input: { matchdesk: join(root, 'electron/cli/index.ts'), 'verdict-worker': join(root, 'electron/engine/runs/verdict-worker.ts'), 'export-half-worker': join(root, 'electron/engine/runs/export-half-worker.ts') },
        // Every chunk beside the entries: a module's own location must be two levels below the repository.
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
  try {
    renameSync(aside, dir);
  } catch {
    rmSync(aside, { recursive: true, force: true });
    if (!existsSync(entry)) throw new Error(`The CLI bundle was built in ${aside} but could not be put at ${dir}.`);
  }
  removeOldBundles(join(root, 'out'), dir);
  return entry;
}

function removeOldBundles(out, current) {
  const others = readdirSync(out)
    .filter((name) => /^cli-bundle-[0-9a-f]+$/.test(name) && join(out, name) !== current)
    .map((name) => ({ path: join(out, name), mtimeMs: statSync(join(out, name), { throwIfNoEntry: false })?.mtimeMs ?? Date.now() }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  // Another process may remove the same one meanwhile: gone either way.
  for (const old of others.slice(KEPT_BUNDLES - 1)) {
    if (Date.now() - old.mtimeMs > KEPT_BUNDLE_MS) rmSync(old.path, { recursive: true, force: true });
  }
}

/** A digest of every source file's path and bytes: about 35 ms for the 1.8 MB of them. */
function sourcesHash(root) {
  const hash = createHash('sha256');
  const add = (path) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(`${relative(root, path).split('\\').join('/')}\0`).update(readFileSync(path)).update('\0');
    }
  };
  for (const source of SOURCES) add(join(root, source));
  return hash.digest('hex').slice(0, 16);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await buildCliBundle()}\n`);
}
