import { useId, useState } from 'react';
import { fieldInfo } from '../../../../shared/fields';
import type { SearchFilter } from '../../../../shared/search-filters';
import { SEARCH_TEMPLATES, templateProblems, type SearchTemplate, type SearchTemplateId, type TemplateParam } from '../../../../shared/search-templates';
import { Button } from '../../ui/button';
import { templateValues, type TemplateInputs } from './template-values';
import { ValuesEditor } from './values-editor';

interface TemplatePickerProps {
  onApply: (built: { filters: SearchFilter[]; name: string }, template: SearchTemplate) => void;
}

/** Ready-made questions: pick one, give its values, and it writes the filters into the builder. */
export function TemplatePicker({ onApply }: TemplatePickerProps) {
  const ids = useId();
  const [chosen, setChosen] = useState<SearchTemplateId | null>(null);
  const [inputs, setInputs] = useState<Record<SearchTemplateId, TemplateInputs>>({ 'left-companies': {}, 'function-at-companies': {}, 'held-title': {} });
  const [attempted, setAttempted] = useState(false);
  const template = SEARCH_TEMPLATES.find((t) => t.id === chosen) ?? null;
  const own = template ? inputs[template.id] : {};
  const values = template ? templateValues(template, own) : {};
  const problems = template ? templateProblems(template, values) : [];
  const set = (key: string, value: string | string[]) => template && setInputs((all) => ({ ...all, [template.id]: { ...all[template.id], [key]: value } }));

  const apply = () => {
    if (!template) return;
    if (problems.length > 0) {
      setAttempted(true);
      return;
    }
    setAttempted(false);
    // The filters are in the builder now; the form gets out of the way (its values stay, should it be reopened).
    setChosen(null);
    onApply(template.build(values), template);
  };

  return (
    <div className="template-picker">
      <div className="template-choices" role="group" aria-label="Templates">
        {SEARCH_TEMPLATES.map((t) => (
          <button
            key={t.id}
            type="button"
            className="template-choice"
            aria-pressed={chosen === t.id}
            onClick={() => {
              setChosen(chosen === t.id ? null : t.id);
              setAttempted(false);
            }}
            data-testid={`template-${t.id}`}
          >
            <span className="template-choice__label">{t.label}</span>
            <span className="template-choice__description">{t.description}</span>
          </button>
        ))}
      </div>
      {template && (
        <form
          className="template-form"
          aria-label={template.label}
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
          data-testid="template-form"
        >
          <div className="template-form__params">
            {template.params.map((param) => (
              <TemplateParamInput key={`${template.id}-${param.key}`} id={`${ids}-${template.id}-${param.key}`} param={param} value={own[param.key]} onChange={(value) => set(param.key, value)} />
            ))}
          </div>
          {attempted && problems.length > 0 && (
            <ul className="field__error" role="alert" data-testid="template-problems">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          <div className="form-actions">
            <Button type="submit" variant="primary" data-testid="template-apply">
              Fill the builder
            </Button>
            <span className="muted">Replaces the filters below; you can still change them before running.</span>
          </div>
        </form>
      )}
    </div>
  );
}

interface TemplateParamInputProps {
  id: string;
  param: TemplateParam;
  value: string | string[] | undefined;
  onChange: (value: string | string[]) => void;
}

function TemplateParamInput({ id, param, value, onChange }: TemplateParamInputProps) {
  const info = fieldInfo(param.field);
  if (param.kind === 'date') {
    return (
      <div className="field">
        <label htmlFor={id}>{param.label}</label>
        <input id={id} type="date" value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value)} data-testid={`template-param-${param.key}`} />
      </div>
    );
  }
  if (info?.type === 'enum' && info.values) {
    const picked = Array.isArray(value) ? value : [];
    return (
      <fieldset className="field template-form__wide">
        <legend>{param.label}</legend>
        <div className="filter-row__vocabulary" data-testid={`template-param-${param.key}`}>
          {info.values.map((v) => (
            <label key={v} className="check-chip">
              <input type="checkbox" checked={picked.includes(v)} onChange={(event) => onChange(event.target.checked ? [...picked, v] : picked.filter((p) => p !== v))} /> {v}
            </label>
          ))}
        </div>
      </fieldset>
    );
  }
  return (
    <div className="field template-form__wide">
      <label htmlFor={id}>{param.label}</label>
      <ValuesEditor id={id} field={param.field} text={typeof value === 'string' ? value : ''} onChange={onChange} label={param.label} testId={`template-param-${param.key}`} />
    </div>
  );
}
