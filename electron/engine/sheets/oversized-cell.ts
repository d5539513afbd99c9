/** Thrown by the format readers, which know the row and column but not the header name the message needs. */
export class OversizedCell extends Error {
  override readonly name = 'OversizedCell';

  constructor(
    readonly line: number,
    readonly column: number,
    readonly bytes: number,
    /** The cell has not ended yet: it may be a quote that is never closed. */
    readonly unfinished = false,
    /** Reading stopped once the cell passed `bytes` (an xlsx cell is not read past the limit): its size is more. */
    readonly atLeast = false,
  ) {
    super(`cell in row ${line}, column ${column} is ${atLeast ? 'over ' : ''}${bytes} bytes`);
  }
}
