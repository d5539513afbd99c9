// The files the user gave a window: picked in a native dialog or dropped on it. The renderer names them by opaque
// tokens, random and per window, never by path, so a page that went wrong can neither read nor overwrite any other
// file this user can reach.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';

export const PICKED_PREFIX = 'picked:';

/** A file picked to be read (open dialog, drop) or written (save dialog): a token is good for its own use only. */
export type PickedUse = 'read' | 'write';

/** The window a token belongs to: its WebContents. */
export interface TokenOwner {
  id: number;
  once?(event: 'destroyed', listener: () => void): unknown;
}

export class PickedFiles {
  private readonly owners = new Map<number, Map<string, { path: string; use: PickedUse }>>();

  /** A new token for `path` in this window. It ends in the file's name, which the screens show. */
  issue(owner: TokenOwner, path: string, use: PickedUse): string {
    let tokens = this.owners.get(owner.id);
    if (!tokens) {
      tokens = new Map();
      this.owners.set(owner.id, tokens);
      // A closed window's tokens go with it: a window that later gets the same id starts with none.
      owner.once?.('destroyed', () => this.owners.delete(owner.id));
    }
    const token = `${PICKED_PREFIX}${randomBytes(24).toString('base64url')}/${basename(path)}`;
    tokens.set(token, { path, use });
    return token;
  }

  /** The path behind a token of this window for this use, or null. */
  pathOf(owner: Pick<TokenOwner, 'id'>, token: string, use: PickedUse): string | null {
    const picked = this.owners.get(owner.id)?.get(token);
    return picked && picked.use === use ? picked.path : null;
  }
}
