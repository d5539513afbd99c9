import { Fragment } from 'react';

/**
 * A link, an e-mail or a file path cut after its separators (/ . - _ ? & = @ \), the places a reader expects it to
 * wrap; the two slashes of "https://" stay together. Letters between separators are never split.
 */
export function breakableParts(text: string): string[] {
  return text.split(/(?<=[/.\-_?&=@\\])(?![/\\])/);
}

/** Text that wraps at its separators rather than mid-word when it is too long for its box. */
export function BreakableText({ text }: { text: string }) {
  const parts = breakableParts(text);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
