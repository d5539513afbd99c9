// The engine's layering is kept by lint (eslint.config.js, ENGINE_LAYERS); these cases show the rule biting, so a
// typo in the table cannot quietly turn it off.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('engine layers', () => {
  it('refuses an import from a lower room into a higher one', async () => {
    const messages = await restrictedImports('electron/engine/rows/example.ts', "import { reviewGroups } from '../review/learning';\nexport const x = reviewGroups;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('rows/ sits below');
  });

  it('refuses the facade from a room and a room from the single files below them', async () => {
    expect(await restrictedImports('electron/engine/runs/example.ts', "import { createEngine } from '../engine';\nexport const x = createEngine;\n")).toHaveLength(1);
    expect(await restrictedImports('electron/engine/clock-example.ts', "import { stateCounts } from './rows/row-status';\nexport const x = stateCounts;\n")).toHaveLength(1);
    expect(await restrictedImports('electron/engine/store/migrations/example.ts', "import { stateCounts } from '../../rows/row-status';\nexport const x = stateCounts;\n")).toHaveLength(1);
  });

  it('lets a room import the rooms below it, and electron stays out of them all', async () => {
    expect(await restrictedImports('electron/engine/review/example.ts', "import { stateCounts } from '../rows/row-status';\nimport { runPreview } from '../runs/run-preview';\nexport const x = [stateCounts, runPreview];\n")).toEqual([]);
    expect(await restrictedImports('electron/engine/review/example.ts', "import { app } from 'electron';\nexport const x = app;\n")).toHaveLength(1);
  });

  it('keeps the hosts in their order: the simulator knows nothing of the app, the browser host nothing of the CLI', async () => {
    expect(await restrictedImports('electron/simulator/example.ts', "import type { Clock } from '../engine/clock';\nexport type X = Clock;\n")).toHaveLength(1);
    expect(await restrictedImports('electron/web/example.ts', "import { parseCommandArgs } from '../cli/args';\nexport const x = parseCommandArgs;\n")).toHaveLength(1);
    expect(await restrictedImports('electron/engine/review/example.ts', "import { startWebHost } from '../../web/server';\nexport const x = startWebHost;\n")).toHaveLength(1);
  });
});
