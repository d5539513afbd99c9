// A people reply's text as JSON. On the real network a body cut off midway is a passing fault: the
// client sends such a call again, whichever thread found out that the text does not parse.

/** A 2xx reply whose text is not JSON. Thrown by replyJson; the client retries the call on it. */
export class ReplyNotJson extends Error {
  constructor() {
    super('The reply is not valid JSON.');
    this.name = 'ReplyNotJson';
  }
}

/** JSON.parse of a reply's text, throwing ReplyNotJson instead of a SyntaxError. */
export function replyJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ReplyNotJson();
  }
}
