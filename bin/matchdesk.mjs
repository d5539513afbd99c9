#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the CLI's TypeScript directly (tsx), so `npx matchdesk` works in a checkout with no build step.
// --max-semi-space-size=8 caps V8's young generation (by default it grows to 64 MB semi-spaces on a long step, most
// of it garbage): `matchdesk match` of a 100k-row sheet peaked at 412 MB resident without it, 290 MB with it. A flag
// V8 reads only at start-up, so it is in the line above, in package.json's scripts and in bench/child-process.ts.
import { register } from 'tsx/esm/api';

register();
await import('../electron/cli/index.ts');
