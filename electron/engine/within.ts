/** What `promise` settles to, or `late` once `ms` pass first (its rejection as it is); the timer is cleared either way. */
export async function within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<L>((resolve) => (timer = setTimeout(resolve, ms, late)))]);
  } finally {
    clearTimeout(timer);
  }
}
