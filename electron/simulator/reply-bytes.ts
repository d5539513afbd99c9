// Replies as UTF-8 bytes: each person's reply JSON encoded once into large shared chunks, and a writer that copies
// those bytes into a reply. A reply is then never a string to flatten, measure and encode again for the socket.

/** Room for one person's JSON is reserved at this many bytes a UTF-16 unit (UTF-8's worst), so a write never falls short. */
const MAX_BYTES_PER_UNIT = 3;
const CHUNK_BYTES = 4 * 1024 * 1024;

/** Every person's reply JSON as UTF-8, encoded the first time it is asked for and kept. */
export class PersonJsonBytes {
  private readonly chunks: Buffer[] = [];
  /** Per person: the chunk holding their bytes, -1 before they are first asked for. */
  private readonly chunkOf: Int32Array;
  private readonly startOf: Uint32Array;
  private readonly lengthOf: Uint32Array;
  private used = CHUNK_BYTES;

  constructor(count: number, private readonly json: (person: number) => string) {
    this.chunkOf = new Int32Array(count).fill(-1);
    this.startOf = new Uint32Array(count);
    this.lengthOf = new Uint32Array(count);
  }

  /** The byte length of the person's JSON (encoding it if it is not yet). */
  byteLength(person: number): number {
    if (this.chunkOf[person]! < 0) this.encode(person);
    return this.lengthOf[person]!;
  }

  /** Copies the person's JSON, less its first `skip` bytes, into `target` at `at`; returns how many bytes it copied. */
  copy(person: number, target: Buffer, at: number, skip = 0): number {
    if (this.chunkOf[person]! < 0) this.encode(person);
    const start = this.startOf[person]!;
    return this.chunks[this.chunkOf[person]!]!.copy(target, at, start + skip, start + this.lengthOf[person]!);
  }

  text(person: number): string {
    if (this.chunkOf[person]! < 0) this.encode(person);
    const start = this.startOf[person]!;
    return this.chunks[this.chunkOf[person]!]!.toString('utf8', start, start + this.lengthOf[person]!);
  }

  private encode(person: number): void {
    const json = this.json(person);
    const room = json.length * MAX_BYTES_PER_UNIT;
    let chunk = this.chunks[this.chunks.length - 1];
    if (!chunk || this.used + room > chunk.length) {
      chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, room));
      this.chunks.push(chunk);
      this.used = 0;
    }
    const length = chunk.write(json, this.used, 'utf8');
    this.chunkOf[person] = this.chunks.length - 1;
    this.startOf[person] = this.used;
    this.lengthOf[person] = length;
    this.used += length;
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
