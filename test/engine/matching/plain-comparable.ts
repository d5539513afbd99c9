// comparable() as defined before its fast paths, for the tests that hold the fast paths to it.

/** comparable() without any fast path. */
export function plainComparable(text: string): string {
  const special: Record<string, string> = { ł: 'l', ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ĸ: 'k', ŋ: 'n', ƒ: 'f' };
  let s = String(text ?? '');
  for (let round = 0; round < 2; round++) {
    s = s.normalize('NFKD').replace(/[\p{Mn}\p{Me}]/gu, '').toLowerCase().replace(/[łøßæœđðþıħŧĸŋƒ]/gu, (c) => special[c] ?? c);
  }
  return s.replace(/['\u2019\u02BC\u2018`´]/gu, '').replace(/[^\p{L}\p{N}\p{Mc}]+/gu, ' ').trim();
}
