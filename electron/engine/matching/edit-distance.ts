/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent swaps, so "Jonh" is one typo from "John"),
 * counted in code points. Stops early and returns `max + 1` once the distance must exceed `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  // Nearly every name and company is free of surrogate pairs: then a code unit is a code point, and no copy is made.
  const x = hasSurrogate(a) ? [...a] : a;
  const y = hasSurrogate(b) ? [...b] : b;
  if (Math.abs(x.length - y.length) > max) return max + 1;
  if (max === 0 || max === 1) return withinOne(x, y, max);
  return distance(x, y, max);
}

function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

type Letters = string | readonly string[];

/** The distance when at most one edit is allowed (the caller asks "a typo away?"): one walk, no table. */
function withinOne(x: Letters, y: Letters, max: number): number {
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  if (start === x.length && start === y.length) return 0;
  if (max === 0) return 1;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }
  const left = endX - start;
  const right = endY - start;
  // One letter changed, added or dropped, or two neighbours swapped.
  if (left <= 1 && right <= 1) return 1;
  if (left === 2 && right === 2 && x[start] === y[start + 1] && x[start + 1] === y[start]) return 1;
  return 2;
}

// Rows of the table, kept between calls and grown as needed: the distance is asked for pair after pair.
let before = new Int32Array(32);
let previous = new Int32Array(32);
let current = new Int32Array(32);

function distance(x: Letters, y: Letters, max: number): number {
  const n = y.length;
  if (previous.length < n + 1) {
    before = new Int32Array(2 * (n + 1));
    previous = new Int32Array(2 * (n + 1));
    current = new Int32Array(2 * (n + 1));
  }
  for (let j = 0; j <= n; j++) {
    before[j] = 0;
    previous[j] = j;
  }
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    let rowMin = i;
    const xi = x[i - 1];
    for (let j = 1; j <= n; j++) {
      const cost = xi === y[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && xi === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const oldest = before;
    before = previous;
    previous = current;
    current = oldest;
  }
  return Math.min(previous[n]!, max + 1);
}
