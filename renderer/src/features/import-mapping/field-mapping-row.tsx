import type { ColumnGuess, MappingSample } from '../../../../shared/contract';
import type { MappedField } from '../../../../shared/model';
import { columnLetter } from '../../ui/format';
import { FIELD_LABELS } from './field-labels';
import { BreakableText } from '../../ui/breakable-text';

interface FieldMappingRowProps {
  field: MappedField;
  headers: string[];
  column: number | undefined;
  guess: ColumnGuess | undefined;
  samples: MappingSample[] | undefined;
  onChange: (column: number) => void;
}

export function columnName(headers: string[], column: number): string {
  return `${columnLetter(column)} · ${headers[column] || '(no header)'}`;
}

export function FieldMappingRow({ field, headers, column, guess, samples, onChange }: FieldMappingRowProps) {
  const id = `mapping-${field}`;
  const detectedOther = guess && guess.column !== column;
  return (
    <tr data-testid={`mapping-field-${field}`}>
      <th scope="row">
        <label htmlFor={id}>{FIELD_LABELS[field]}</label>
      </th>
      <td>
        <select id={id} value={column ?? -1} onChange={(event) => onChange(Number(event.target.value))} data-testid={`mapping-select-${field}`} aria-describedby={guess ? `${id}-guess` : undefined}>
          <option value={-1}>Not in this sheet</option>
          {headers.map((_, index) => (
            <option key={index} value={index}>
              {columnName(headers, index)}
            </option>
          ))}
        </select>
        {guess && (
          <p className="field__help" id={`${id}-guess`}>
            {detectedOther ? `Detected ${columnName(headers, guess.column)}: ` : 'Detected: '}
            {guess.reason}
          </p>
        )}
      </td>
      <td>
        {column === undefined ? (
          <span className="muted">—</span>
        ) : !samples ? (
          <span className="muted">…</span>
        ) : samples.length === 0 ? (
          <span className="muted">No values in the first rows</span>
        ) : (
          <ul className="samples" aria-label={`Sample values for ${FIELD_LABELS[field]}`}>
            {samples.slice(0, 3).map((sample, index) => (
              <li key={index} className={sample.problem ? 'samples__item samples__item--problem' : 'samples__item'}>
                <span className="samples__raw">{sample.raw ? <BreakableText text={sample.raw} /> : '(empty)'}</span>
                {sample.normalized !== null && sample.normalized !== sample.raw && (
                  <>
                    <span aria-hidden="true"> → </span>
                    <span className="sr-only"> becomes </span>
                    <span className="samples__normalized">{sample.normalized}</span>
                  </>
                )}
                {sample.problem && <span className="samples__problem"> ⚠ {sample.problem}</span>}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
