import { useEffect, useMemo, useRef, useState } from 'react';
import type { ContractError, ProjectDetail } from '../../../../shared/contract';
import { lookupShortfall } from '../../../../shared/lookup-needs';
import { MAPPED_FIELDS, type Strategy } from '../../../../shared/model';
import { CANCELLING, planProgressParts } from '../../../../shared/progress';
import { api } from '../../api';
import { useRoute } from '../../navigation/use-route';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { ProgressLine } from '../../ui/progress-line';
import { useCancel } from '../../ui/use-cancel';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useEngineData } from '../../ui/use-engine-data';
import { useFoundGoingOn } from '../../jobs/use-found-job';
import { useJobDetail } from '../../jobs/use-job-detail';
import { ProjectHeader } from '../projects/project-header';
import { FieldMappingRow } from './field-mapping-row';
import { withField } from './field-labels';
import { bestGuesses, initialMapping } from './initial-mapping';
import { SampleTable } from './sample-table';
import { sessionSources, sheetSourceOf } from './sheet-file';
import { SheetPicker } from './sheet-picker';
import { SheetWarnings } from './sheet-warnings';
import { chosenStrategies, initialStrategyChoice, moveStrategy, toggleStrategy } from './strategy-order';
import { StrategyOrderList } from './strategy-order-list';

/** The rows a sheet's samples are taken from, asked for first when the whole sheet takes longer to check. */
const FIRST_ROWS = 200;
/** Sheets over this many rows show their first rows' samples before the whole sheet is checked. */
const FIRST_ROWS_ABOVE = 30_000;
/** The job whose detail says how far saving the mapping (planning its queries) is. */
const PLAN = ['plan'] as const;

export function MappingScreen({ projectId }: { projectId: number }) {
  const detail = useEngineData(`project:${projectId}`, () => api.callOrThrow('projects.get', { projectId }));
  return (
    <div className="screen mapping-screen">
      <ProjectHeader projectId={projectId} current="mapping" summary={detail.value?.summary} title="Which columns hold what" />
      <ErrorBanner error={detail.error} title="Could not open the project" onRetry={detail.reload} />
      {detail.value ? <MappingEditor key={detail.value.summary.id} detail={detail.value} /> : !detail.error && <p className="muted">Loading the sheet…</p>}
    </div>
  );
}

function MappingEditor({ detail }: { detail: ProjectDetail }) {
  const projectId = detail.summary.id;
  const { navigate } = useRoute();
  const [mapping, setMapping] = useState(() => initialMapping(detail));
  const [choice, setChoice] = useState(() => initialStrategyChoice(detail.strategies));
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<ContractError | null>(null);
  const guesses = useMemo(() => bestGuesses(detail.guesses), [detail.guesses]);
  const strategies = chosenStrategies(choice);
  // Nothing to look anyone up by: a run would ask for no row, so the screen says what is missing and does not go on.
  const shortfall = lookupShortfall(mapping, strategies);
  const fileRef = sheetSourceOf(sessionSources(), projectId);

  const request = useDebouncedValue(JSON.stringify({ mapping, strategies }), 200);
  // This screen's own previews: a newer one lets the last go, and the same project's mapping open in another window
  // keeps its own.
  const [screen] = useState(() => crypto.randomUUID());
  const askPreview = (firstRows?: number) => () => {
    const parsed = JSON.parse(request) as { mapping: typeof mapping; strategies: Strategy[] };
    return api.callOrThrow('mapping.preview', { projectId, mapping: parsed.mapping, strategies: parsed.strategies, screen, ...(firstRows === undefined ? {} : { firstRows }) });
  };
  const asking = strategies.length > 0;
  const preview = useEngineData(asking ? `preview:${projectId}:${request}` : null, askPreview());
  // A large sheet's whole preview takes seconds: its first rows give the samples meanwhile.
  const quick = asking && detail.summary.rowCount > FIRST_ROWS_ABOVE;
  const firstRows = useEngineData(quick ? `preview-first:${projectId}:${request}` : null, askPreview(FIRST_ROWS));
  const samples = preview.value ?? firstRows.value;
  const counting = asking && !preview.value && !preview.error;
  // Columns are mapped, but not one row of the whole sheet gives them anything to ask with.
  const nothingInIt = shortfall === null && preview.value !== undefined && detail.summary.rowCount > 0 && preview.value.unusableRows >= detail.summary.rowCount;

  // Saving a large sheet's mapping plans its rows, which takes a while. The user may go elsewhere meanwhile: then the
  // save's end leaves them where they are. A mapping screen opened while one is saved (after going elsewhere, or in
  // another window) shows how far it is, and goes on to the run when it ends, as its Continue would have. A plan a
  // run or a read started is shown for what it is, without Cancel: it is that work's own step.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const found = useFoundGoingOn(PLAN, projectId, (cancelledHere) => {
    if (!cancelledHere && found.word?.startedBy === 'mapping') navigate({ screen: 'run', projectId });
  });
  const planning = saving || found.word !== null;
  // A mapping's save: this screen's, or one found going on.
  const saveGoing = saving || found.word?.startedBy === 'mapping';
  const event = useJobDetail(PLAN, projectId, planning);
  const planned = event ?? found.word;

  const save = async () => {
    setSaving(true);
    setSaveError(null);
    try {
      await api.callOrThrow('mapping.save', { projectId, mapping, strategies });
      if (shown.current) navigate({ screen: 'run', projectId });
    } catch (thrown) {
      const error = toContractError(thrown);
      // Cancelled by the user: the screen stays as they left it, to change the mapping and go on.
      if (error.kind !== 'cancelled') setSaveError(error);
      setSaving(false);
    }
  };

  const { cancelling, cancel } = useCancel(saveGoing, () => {
    found.cancelledHere();
    void api.call('job.cancel', { projectId, kind: 'plan' });
  });

  return (
    <>
      <section className="card" aria-labelledby="sample-heading">
        <div className="section-head">
          <h2 id="sample-heading">
            First rows <span className="muted">of {plural(detail.summary.rowCount, 'row')}</span>
          </h2>
          {detail.format === 'xlsx' && <SheetPicker detail={detail} fileRef={fileRef} />}
        </div>
        <SampleTable headers={detail.headers} rows={detail.sample.slice(0, 5)} />
      </section>

      <div className="mapping-layout">
        <section className="card" aria-labelledby="fields-heading">
          <h2 id="fields-heading">Columns for each field</h2>
          <table className="table field-table">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Column</th>
                <th scope="col">Sample values, as they will be looked up</th>
              </tr>
            </thead>
            <tbody>
              {MAPPED_FIELDS.map((field) => (
                <FieldMappingRow
                  key={field}
                  field={field}
                  headers={detail.headers}
                  column={mapping[field]}
                  guess={guesses[field]}
                  samples={samples?.fields[field]?.samples}
                  onChange={(column) => setMapping((current) => withField(current, field, column))}
                />
              ))}
            </tbody>
          </table>
        </section>

        <div className="mapping-side">
          <section className="card" aria-labelledby="strategy-heading">
            <h2 id="strategy-heading">Look people up by</h2>
            <p className="muted">Each row tries these in order until one finds somebody.</p>
            <StrategyOrderList
              choice={choice}
              mapping={mapping}
              onToggle={(strategy, on) => setChoice((current) => toggleStrategy(current, strategy, on))}
              onMove={(strategy, by) => setChoice((current) => moveStrategy(current, strategy, by))}
            />
            {strategies.length === 0 && <p className="text-warning">Switch on at least one way to look people up.</p>}
          </section>

          <section className="card" aria-labelledby="warnings-heading">
            <h2 id="warnings-heading">Warnings</h2>
            <SheetWarnings warnings={detail.warnings} preview={preview.value} counting={counting} headers={detail.headers} />
            <ErrorBanner error={preview.error} title="Could not check the mapping" />
          </section>

        </div>
      </div>
      <div className="action-bar">
        <ErrorBanner error={saveError} title="Could not save the mapping" onDismiss={() => setSaveError(null)} />
        {planning ? (
          <>
            <ProgressLine parts={cancelling ? CANCELLING : planProgressParts(planned)} label="Planning progress" testId="mapping-planning" />
            {saveGoing && (
              <Button onClick={cancel} disabled={cancelling} title="Cancel planning and keep the mapping the project had (Esc)" aria-keyshortcuts="Escape" data-testid="mapping-cancel">
                Cancel
              </Button>
            )}
          </>
        ) : shortfall && strategies.length > 0 ? (
          <span className="text-warning" role="status" data-testid="mapping-shortfall">
            {shortfall} Choose the column that holds one under “Columns for each field”.
          </span>
        ) : nothingInIt ? (
          <span className="text-warning" role="status" data-testid="mapping-shortfall">
            None of the {plural(detail.summary.rowCount, 'row')} has anything to look up with these columns: their samples show what each cell becomes.
          </span>
        ) : (
          <span className="muted" role="status">
            {preview.value ? `${plural(detail.summary.rowCount - preview.value.unusableRows, 'row')} to look up` : counting ? 'Counting the rows to look up…' : ''}
          </span>
        )}
        <Button variant="primary" busy={planning} disabled={shortfall !== null || nothingInIt} onClick={save} data-testid="mapping-continue">
          Continue to preview
        </Button>
      </div>
    </>
  );
}
