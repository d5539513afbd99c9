// The CLI as one bundle of the source tree, for tests that start it many times: a child started from it loads a few
// files, where `bin/matchdesk.mjs` has tsx transform and load every module of the engine again in each child (and
// in its verdict worker). Built once per state of the sources, named by their hash, so it is never stale.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
/** What the bundle is made of; package.json for the version the CLI reports. */
const SOURCES = ['electron', 'shared', 'package.json'];
/** A bundle of sources this long gone is removed when a new one is built; a younger one may still be running. */
const OLD_BUNDLE_MS = 60 * 60 * 1000;

let built: Promise<string> | null = null;

/**
 * The bundled CLI's entry (out/cli-bundle-<hash>/matchdesk.js), built if the sources changed since the last one.
 * Two levels below the repository like the app's own bundle (out/main), so the modules that find package.json,
 * resources/ or out/renderer from their own location find them; the verdict worker is built beside it.
 */
export function cliBundle(): Promise<string> {
  built ??= build();
  return built;
}

async function build(): Promise<string> {
  const out = join(REPO_ROOT, 'out');
  const dir = join(out, `cli-bundle-${sourcesHash()}`);
  const entry = join(dir, 'matchdesk.js');
  if (existsSync(entry)) return entry;
  // Built aside and renamed into place: another test process building the same sources meanwhile is harmless.
  const aside = `${dir}-${process.pid}`;
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    configFile: false,
    root: REPO_ROOT,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir: aside,
      emptyOutDir: true,
      target: 'node22',
      reportCompressedSize: false,
      rollupOptions: {
        input: { matchdesk: join(REPO_ROOT, 'electron/cli/index.ts'), 'verdict-worker': join(REPO_ROOT, 'electron/engine/runs/verdict-worker.ts') },
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
  for (const name of readdirSync(out)) {
    const other = join(out, name);
    // Another test process may remove the same one meanwhile: gone either way.
    const age = name.startsWith('cli-bundle-') && other !== dir ? Date.now() - (statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) : 0;
    if (age > OLD_BUNDLE_MS) rmSync(other, { recursive: true, force: true });
  }
  return entry;
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(`${relative(REPO_ROOT, path)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  for (const source of SOURCES) add(join(REPO_ROOT, source));
  return hash.digest('hex').slice(0, 16);
}
