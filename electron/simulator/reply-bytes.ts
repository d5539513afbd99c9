// Replies as UTF-8 bytes: each person's reply JSON encoded once and kept, and a writer that copies those bytes into
// a reply. A reply is then never a string to flatten, measure and encode again for the socket.

/**
 * Every person's reply JSON as UTF-8, encoded the first time it is asked for and kept as a one-byte string of those
 * bytes (a character a byte). Strings live in V8's heap: the same bytes in Buffers are external memory, whose growth
 * sets off full collections of the whole heap (the dataset's millions of objects) while the run goes on.
 */
export class PersonJsonBytes {
  private readonly bytes: (string | undefined)[];

  constructor(count: number, private readonly json: (person: number) => string) {
    this.bytes = new Array<string | undefined>(count);
  }

  /** The byte length of the person's JSON (encoding it if it is not yet). */
  byteLength(person: number): number {
    return this.of(person).length;
  }

  /** Copies the person's JSON, less its first `skip` bytes, into `target` at `at`; returns how many bytes it copied. */
  copy(person: number, target: Buffer, at: number, skip = 0): number {
    const bytes = this.of(person);
    return target.write(skip === 0 ? bytes : bytes.slice(skip), at, 'latin1');
  }

  text(person: number): string {
    return Buffer.from(this.of(person), 'latin1').toString('utf8');
  }

  private of(person: number): string {
    let bytes = this.bytes[person];
    if (bytes === undefined) {
      const json = this.json(person);
      // All ASCII (a byte a character) is its own UTF-8.
      bytes = Buffer.byteLength(json) === json.length ? json : Buffer.from(json).toString('latin1');
      this.bytes[person] = bytes;
    }
    return bytes;
  }
}

/** A reply's bytes, written in order: ASCII text (JSON punctuation, numbers) and people's JSON. */
export class ReplyWriter {
  private buffer: Buffer;
  private at = 0;

  /** `capacity`: the expected size; the writer grows past it if need be. */
  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(64, capacity));
  }

  /** `text` must be ASCII: each character is written as one byte. */
  ascii(text: string): void {
    this.ensure(text.length);
    const { buffer } = this;
    for (let i = 0; i < text.length; i++) buffer[this.at++] = text.charCodeAt(i);
  }

  /** The person's JSON, less its first `skip` bytes (1 drops the opening brace to add fields before the rest). */
  person(people: PersonJsonBytes, person: number, skip = 0): void {
    this.ensure(people.byteLength(person));
    this.at += people.copy(person, this.buffer, this.at, skip);
  }

  /** The bytes written (a view: the writer is done with them). */
  finish(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  private ensure(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}
