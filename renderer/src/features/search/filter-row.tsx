import { fieldInfo, SEARCH_FIELDS, type MatchType } from '../../../../shared/fields';
import { JOB_FIELDS, offeredMatches, type BuilderAction, type FilterRow as Row, type FilterType, type RowPlace } from './filter-builder-state';
import { boxLetter, matchHelp, matchLabel, TYPE_LABELS } from './search-words';
import { ValuesEditor } from './values-editor';

interface FilterRowProps {
  row: Row;
  /** 1-based, as the filter's place in the request. */
  number: number;
  /** The box the row is in (its index), or null when loose. */
  boxIndex: number | null;
  boxIds: string[];
  problems: string[];
  dispatch: (action: BuilderAction) => void;
}

function placeValue(boxIndex: number | null, boxIds: string[]): string {
  return boxIndex === null ? 'loose' : boxIds[boxIndex]!;
}

function placeFrom(value: string): RowPlace {
  if (value === 'loose') return { kind: 'loose' };
  if (value === 'new') return { kind: 'newBox' };
  return { kind: 'box', boxId: value };
}

export function FilterRow({ row, number, boxIndex, boxIds, problems, dispatch }: FilterRowProps) {
  const info = fieldInfo(row.field);
  const base = `filter-${row.id}`;
  const problemId = `${base}-problems`;
  const invalid = problems.length > 0;
  const fields = boxIndex === null ? SEARCH_FIELDS : JOB_FIELDS;
  const update = (patch: Extract<BuilderAction, { type: 'updateRow' }>['patch']) => dispatch({ type: 'updateRow', rowId: row.id, patch });
  const what = `filter ${number}`;

  return (
    <li className={`filter-row ${invalid ? 'filter-row--invalid' : ''}`} data-testid="filter-row" data-field={row.field} aria-label={`Filter ${number}: ${info?.label ?? row.field}`}>
      <span className="filter-row__number" aria-hidden="true">
        {number}
      </span>
      <div className="filter-row__controls">
        <select id={`${base}-field`} className="filter-row__field" value={row.field} onChange={(event) => dispatch({ type: 'setField', rowId: row.id, field: event.target.value })} aria-label={`Field of ${what}`} data-testid="filter-field">
          {!info && <option value={row.field}>{row.field}</option>}
          {fields.map((field) => (
            <option key={field.path} value={field.path}>
              {field.label}
            </option>
          ))}
        </select>
        <select className="filter-row__type" value={row.type} onChange={(event) => update({ type: event.target.value as FilterType })} aria-label={`Must or must not, ${what}`} data-testid="filter-type">
          {(Object.keys(TYPE_LABELS) as FilterType[]).map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        <select
          className="filter-row__match"
          value={row.match}
          onChange={(event) => update({ match: event.target.value as MatchType })}
          aria-label={`How to match, ${what}`}
          title={matchHelp(row.match, info)}
          data-testid="filter-match"
        >
          {(info ? offeredMatches(info) : [row.match]).map((match) => (
            <option key={match} value={match}>
              {matchLabel(match, info)}
            </option>
          ))}
        </select>
        <div className={`filter-row__values ${info?.type === 'enum' && row.match !== 'exists' ? 'filter-row__values--wide' : ''}`}>
          <RowValues row={row} what={what} base={base} invalid={invalid} problemId={problemId} update={update} />
        </div>
        {info?.job ? (
          <select className="filter-row__place" value={placeValue(boxIndex, boxIds)} onChange={(event) => dispatch({ type: 'moveRow', rowId: row.id, to: placeFrom(event.target.value) })} aria-label={`Which job, ${what}`} data-testid="filter-place" title="Filters in one same-job box must all hold for one job">
            <option value="loose">on any job</option>
            {boxIds.map((id, index) => (
              <option key={id} value={id}>
                on job {boxLetter(index)}
              </option>
            ))}
            <option value="new">on a new same-job box</option>
          </select>
        ) : (
          <span className="filter-row__place filter-row__place--none muted">of the person</span>
        )}
        <button type="button" className="icon-button filter-row__remove" onClick={() => dispatch({ type: 'removeRow', rowId: row.id })} aria-label={`Remove ${what}`} title="Remove this filter" data-testid="filter-remove">
          ×
        </button>
      </div>
      {invalid && (
        <ul id={problemId} className="filter-row__problems field__error" data-testid="filter-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

interface RowValuesProps {
  row: Row;
  what: string;
  base: string;
  invalid: boolean;
  problemId: string;
  update: (patch: Extract<BuilderAction, { type: 'updateRow' }>['patch']) => void;
}

function RowValues({ row, what, base, invalid, problemId, update }: RowValuesProps) {
  const info = fieldInfo(row.field);
  const describedBy = invalid ? problemId : undefined;
  if (row.match === 'exists') return <span className="muted filter-row__no-values">(takes no values)</span>;
  if (info?.type === 'date') {
    return (
      <div className="filter-row__dates">
        <input type="date" value={row.dateFrom} onChange={(event) => update({ dateFrom: event.target.value })} aria-label={`First day, ${what}`} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid="filter-date-from" />
        <span className="muted">and</span>
        <input type="date" value={row.dateTo} onChange={(event) => update({ dateTo: event.target.value })} aria-label={`Last day, ${what}`} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid="filter-date-to" />
      </div>
    );
  }
  if (info?.type === 'enum' && info.values) {
    const toggle = (value: string, on: boolean) => update({ picked: on ? [...row.picked, value] : row.picked.filter((v) => v !== value) });
    return (
      <fieldset className="filter-row__vocabulary" aria-describedby={describedBy}>
        <legend className="sr-only">{`${info.label} values, ${what}`}</legend>
        {info.values.map((value) => (
          <label key={value} className="check-chip">
            <input type="checkbox" checked={row.picked.includes(value)} onChange={(event) => toggle(value, event.target.checked)} /> {value}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <ValuesEditor
      id={`${base}-values`}
      field={row.field}
      text={row.text}
      onChange={(text) => update({ text })}
      label={`Values of ${what}`}
      placeholder={info?.type === 'slug' ? 'acme-inc, globex (slugs or page links)' : undefined}
      invalid={invalid}
      describedBy={describedBy}
      testId="filter-values"
    />
  );
}
