// Reads a V8 .cpuprofile (node --cpu-prof) and prints where the time went: the functions with the most self time,
// and the inclusive time of the functions named with --focus (their own time and everything they called).
// --after NAME: only the samples from the first one with NAME on its stack (commitLanded: a prepare's run).
// A .heapprofile (profile-step --heap-sample) is read alike: bytes allocated, by function, for time.
//
//   npx tsx bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile --top 40 --focus planProject,answerFromCache
//   npx tsx bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile --after commitLanded --focus walk,commitLanded
//   npx tsx bench/profile-summary.ts /tmp/heap/run.heapprofile --focus lookUp
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { num } from './report';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  /** Bytes, in a heap profile's nodes. */
  selfSize?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface HeapProfile {
  head: ProfileNode & { children?: (ProfileNode & { children?: unknown[] })[] };
}

const { values, positionals } = parseArgs({ options: { top: { type: 'string' }, focus: { type: 'string' }, after: { type: 'string' } }, allowPositionals: true });
const file = positionals[0];
if (!file) throw new Error('usage: profile-summary <file.cpuprofile|file.heapprofile> [--top N] [--focus name,name] [--after name]');
const read = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile | HeapProfile;
const heap = 'head' in read;
const profile = heap ? heapAsSamples(read) : read;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const onStack = (id: number, name: string) => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)!.callFrame.functionName === name) return true;
  return false;
};
const selfMs = new Map<number, number>();
let counting = values.after === undefined;
profile.samples.forEach((id, i) => {
  counting ||= onStack(id, values.after!);
  if (counting) selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
const total = [...selfMs.values()].reduce((a, b) => a + b, 0);

const where = (n: ProfileNode) => {
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/(electron|bench|node_modules)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
};
const self = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const key = where(byId.get(id)!);
  self.set(key, (self.get(key) ?? 0) + ms);
}
// In a heap profile a "ms" is a kB allocated.
const unit = heap ? 'MB' : 's';
process.stdout.write(`${file}: ${num(total / 1000, 1)} ${heap ? 'MB allocated' : 's sampled'}${values.after ? ` from ${values.after} on` : ''}\n\nSelf ${heap ? 'allocations' : 'time'}\n`);
for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top ?? 30))) {
  process.stdout.write(`${num(ms / 1000, 2).padStart(9)} ${unit} ${num((100 * ms) / total, 1).padStart(5)}%  ${key}\n`);
}

// Inclusive time: a sample counts once for each focused function on its stack (recursion counted once).
const focus = (values.focus ?? '').split(',').filter(Boolean);
if (focus.length > 0) {
  const inclusive = new Map<string, number>(focus.map((f) => [f, 0]));
  for (const [id, ms] of selfMs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (inclusive.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, inclusive.get(name)! + ms);
      }
    }
  }
  process.stdout.write(`\nInclusive ${heap ? 'allocations' : 'time'}\n`);
  for (const [name, ms] of inclusive) process.stdout.write(`${num(ms / 1000, 2).padStart(9)} ${unit} ${num((100 * ms) / total, 1).padStart(5)}%  ${name}\n`);
}

/** A heap profile's tree as a CPU profile's nodes, each node's own bytes one sample of that many "µs" (kB: MB shown). */
function heapAsSamples({ head }: HeapProfile): CpuProfile {
  const nodes: ProfileNode[] = [];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let next = 1;
  const add = (node: ProfileNode & { children?: unknown[] }): number => {
    const id = next++;
    const flat: ProfileNode = { id, callFrame: node.callFrame, children: [] };
    nodes.push(flat);
    if (node.selfSize) {
      samples.push(id);
      timeDeltas.push(node.selfSize);
    }
    for (const child of (node.children ?? []) as (ProfileNode & { children?: unknown[] })[]) flat.children!.push(add(child));
    return id;
  };
  add(head);
  return { nodes, samples, timeDeltas };
}
