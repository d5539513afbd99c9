// `matchdesk import people.csv | head -1`: the reader has gone. What is left to say has nobody to read it, so it
// is dropped and the command ends as it would have (its exit code, its database closed), not with a stack trace.
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

export function quietOnBrokenPipe(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (!GONE.has(err.code ?? '')) throw err;
    });
  }
}
