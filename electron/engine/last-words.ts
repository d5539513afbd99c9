/**
 * The last word of each long step going on, by project (an accept or an undo over many rows, an export): what a screen
 * opened while it goes on, after the user went elsewhere or in another window, shows and follows to its end. The word
 * is kept from the step's first to its end, however it ends.
 */
export class LastWords<W> {
  private readonly words = new Map<number, W>();

  /** The last word of the step going on in the project, or null. */
  get(projectId: number): W | null {
    return this.words.get(projectId) ?? null;
  }

  /** Runs `work` with a `say` that keeps each word it is given until the work ends. */
  async keep<T>(projectId: number, work: (say: (word: W) => void) => Promise<T>): Promise<T> {
    let last: W | null = null;
    const say = (word: W) => {
      last = word;
      this.words.set(projectId, word);
    };
    try {
      return await work(say);
    } finally {
      // Another step's word (one started after this one said its last) stays.
      if (last !== null && this.words.get(projectId) === last) this.words.delete(projectId);
    }
  }
}
