import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeBundle, measureBundle, type BundleSize } from '../scripts/renderer-bundle-size';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds the app as `npm run build` does and measures the renderer bundle it wrote (after the timed steps: a build is CPU work). */
export function buildAndMeasureRenderer(): { size: BundleSize; text: string } {
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr || build.stdout}`);
  const size = measureBundle(join(ROOT, 'out', 'renderer'));
  return { size, text: describeBundle(size) };
}
