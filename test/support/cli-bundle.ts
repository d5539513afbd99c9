// The CLI as bin/matchdesk.mjs runs it: the bundle of the sources (bin/cli-bundle.mjs), built by the first test that
// needs it. Tests start it directly, without the bin's checks before it (those have tests of their own).
import { buildCliBundle } from '../../bin/cli-bundle.mjs';

let built: Promise<string> | null = null;

/** The bundled CLI's entry (out/cli-bundle-<hash>/matchdesk.js), built if the sources changed since the last one. */
export function cliBundle(): Promise<string> {
  built ??= buildCliBundle();
  return built;
}
