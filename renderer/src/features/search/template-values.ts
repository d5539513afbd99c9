import type { SearchTemplate, TemplateValues } from '../../../../shared/search-templates';
import { parseValueList } from './value-list';

/** A template form's inputs: a typed list or a date as text, picks from a vocabulary as a list. */
export type TemplateInputs = Record<string, string | string[]>;

/** The values a template's `build` takes, from what the form holds (typed lists parsed, picks as they are). */
export function templateValues(template: SearchTemplate, inputs: TemplateInputs): TemplateValues {
  const values: TemplateValues = {};
  for (const param of template.params) {
    const input = inputs[param.key];
    if (Array.isArray(input)) values[param.key] = input;
    else if (param.kind === 'values') values[param.key] = parseValueList(input ?? '').values;
    else values[param.key] = input ?? '';
  }
  return values;
}
