import type { Ref } from 'react';

interface TextFilterProps {
  inputRef: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
  /** Escape on an empty filter hands the keys back to the table. */
  onLeave: () => void;
}

export function TextFilter({ inputRef, value, onChange, onLeave }: TextFilterProps) {
  return (
    <input
      ref={inputRef}
      type="search"
      className="text-filter"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && value === '') onLeave();
        if (event.key === 'Enter' || event.key === 'ArrowDown') {
          event.preventDefault();
          onLeave();
        }
      }}
      placeholder="Filter rows ( / )"
      aria-label="Filter rows by text: name, e-mail, company or any cell"
      data-testid="review-text-filter"
    />
  );
}
