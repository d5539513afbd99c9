import { MalformedReplyError } from './errors';

// Fatal: a byte that is not UTF-8 must fail the reply, not become U+FFFD in a name that is then cached as an answer.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const looseUtf8 = new TextDecoder();

/** A reply body as UTF-8 text (a byte order mark dropped); MalformedReplyError naming `what` when it is not UTF-8. */
export function replyText(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new MalformedReplyError(`the ${what} is not valid UTF-8 text, so no name in it can be trusted`);
  }
}

/** An error reply's text for showing: a byte that is not UTF-8 becomes U+FFFD, as it is only read, never stored as an answer. */
export function looseReplyText(bytes: Uint8Array): string {
  return looseUtf8.decode(bytes);
}
