// No module of the app imports itself back through others: each room's files stand in an order, the lower ones knowing
// nothing of the higher (lint keeps the rooms' order, eslint.config.js; this keeps the files' within a room). Type-only
// imports count too: they tie the files' designs as much as the code does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['electron', 'shared', 'renderer/src'];
/** `import ... from './x'`, `export ... from './x'`, `import('./x')`: the relative ones. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolved(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const path of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(path).isFile() && /\.tsx?$/.test(path)) return path;
    } catch {
      // Not this one.
    }
  }
  return null;
}

/** The import graph's loops: its strongly connected components of more than one file, or a file importing itself. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].map(([, specifier]) => resolved(file, specifier!)).filter((path) => path !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

describe('import circles', () => {
  it('finds a loop of imports, and a file that imports itself', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map([['a', ['a']], ['b', []]]))).toEqual([['a']]);
    expect(circles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('reads the imports of the app as they are written', () => {
    const graph = importGraph();
    const facade = join(ROOT, 'electron/engine/engine.ts');
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get(facade)).toContain(join(ROOT, 'electron/engine/heap-policy.ts'));
  });

  it('has none in the app', () => {
    const found = circles(importGraph()).map((files) => files.map((file) => relative(ROOT, file)).join(' <-> '));
    expect(found).toEqual([]);
  });
});
