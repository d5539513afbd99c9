#!/usr/bin/env node
// Runs the CLI's TypeScript directly (tsx), so `npx matchdesk` works in a checkout with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../electron/cli/index.ts');
