import { useState } from 'react';
import { plural } from '../../ui/format';
import { Button } from '../../ui/button';
import { ColumnValuesDialog } from './column-values-dialog';
import { parseValueList, valueListText } from './value-list';

interface ValuesEditorProps {
  id: string;
  /** The search field the values are for. */
  field: string;
  text: string;
  onChange: (text: string) => void;
  /** The accessible name of the text box, e.g. "Values of filter 2". */
  label: string;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
  testId?: string;
}

const MAX_ROWS = 6;

/** Values typed, pasted as a list (one per line, or comma-separated), or read from a sheet's column. */
export function ValuesEditor({ id, field, text, onChange, label, placeholder, invalid, describedBy, testId }: ValuesEditorProps) {
  const [picking, setPicking] = useState(false);
  const { values, duplicates } = parseValueList(text);
  const lines = text.split('\n').length;
  return (
    <div className="values-editor">
      <textarea
        id={id}
        className="values-editor__text"
        value={text}
        rows={Math.min(MAX_ROWS, Math.max(1, lines))}
        onChange={(event) => onChange(event.target.value)}
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={[`${id}-count`, describedBy].filter(Boolean).join(' ')}
        placeholder={placeholder ?? 'One per line, or separated by commas'}
        spellCheck={false}
        data-testid={testId}
      />
      <div className="values-editor__foot">
        <span id={`${id}-count`} className="muted values-editor__count" data-testid={testId ? `${testId}-count` : undefined}>
          {plural(values.length, 'value')}
          {duplicates > 0 && `, ${plural(duplicates, 'repeat')} left out`}
        </span>
        <Button small variant="quiet" onClick={() => setPicking(true)} data-testid={testId ? `${testId}-from-column` : undefined}>
          From a sheet's column…
        </Button>
      </div>
      {picking && (
        <ColumnValuesDialog
          field={field}
          onClose={() => setPicking(false)}
          onUse={(picked) => {
            onChange(valueListText(picked));
            setPicking(false);
          }}
        />
      )}
    </div>
  );
}
