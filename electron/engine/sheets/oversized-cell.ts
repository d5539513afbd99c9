/** Thrown by the format readers, which know the row and column but not the header name the message needs. */
export class OversizedCell extends Error {
  override readonly name = 'OversizedCell';

  constructor(
    readonly line: number,
    readonly column: number,
    readonly bytes: number,
    /** The cell has not ended yet where reading stopped. */
    readonly unfinished = false,
    /** Reading stopped once the cell passed `bytes` (an xlsx cell is not read past the limit): its size is more. */
    readonly atLeast = false,
    /** The cell is in a quote not closed where reading stopped: likely a quote that is never closed. */
    readonly inOpenQuote = false,
  ) {
    super(`cell in row ${line}, column ${column} is ${atLeast ? 'over ' : ''}${bytes} bytes`);
  }
}
