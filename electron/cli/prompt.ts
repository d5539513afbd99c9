import { createInterface } from 'node:readline';

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Reads a secret without echo on a terminal, or the whole of standard input otherwise. */
export async function readSecret(label: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
  process.stderr.write(`${label}: `);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  let secret = '';
  try {
    for await (const chunk of stdin) {
      for (const ch of (chunk as Buffer).toString('utf8')) {
        if (ch === '\r' || ch === '\n') return secret;
        if (ch === '\u0003') throw new Error('Cancelled.');
        if (ch === '\u007f' || ch === '\b') secret = secret.slice(0, -1);
        else secret += ch;
      }
    }
    return secret;
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}
