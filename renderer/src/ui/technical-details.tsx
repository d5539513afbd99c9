/**
 * What the system said, word for word, folded behind "Details": the message above it is in plain words, and the raw
 * text is there for whoever fixes the machine.
 */
export function TechnicalDetails({ text, testId }: { text: string; testId?: string }) {
  return (
    <details className="technical-details" data-testid={testId}>
      <summary>Details</summary>
      <p className="technical-details__text mono">{text}</p>
    </details>
  );
}
