import { readFileSync } from 'node:fs';

let cached: string | null = null;

/** The version in package.json: beside the sources in a checkout, and two folders up from out/main in a build. */
export function appVersion(): string {
  if (cached === null) {
    try {
      cached = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    } catch {
      cached = '0.0.0-dev';
    }
  }
  return cached;
}
