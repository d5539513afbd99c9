import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CallResult, ContractError, DecisionResult, LearningChange, ReviewGroup } from '../../../../shared/contract';
import type { RowState } from '../../../../shared/model';
import { CANCELLING, decisionsProgressParts } from '../../../../shared/progress';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { formatCount, plural } from '../../ui/format';
import { ProgressLine } from '../../ui/progress-line';
import { useCancel } from '../../ui/use-cancel';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useEngineData } from '../../ui/use-engine-data';
import { useJobDetail } from '../../jobs/use-job-detail';
import { useShortcuts } from '../../ui/use-shortcuts';
import { useToast } from '../../ui/toasts';
import type { ListWindow } from '../../ui/virtual-list';
import { ProjectHeader } from '../projects/project-header';
import { RefreshDialog } from '../refresh/refresh-dialog';
import { AcceptConfidentDialog } from './accept-confident-dialog';
import { FilterChips } from './filter-chips';
import { GroupDialog } from './group-dialog';
import { JobChangeChips } from './job-change-chips';
import { totalMatched } from './job-change-labels';
import { KeyHelp } from './key-help';
import { LearnedDialog } from './learned-dialog';
import { LearningLine } from './learning-line';
import { LearningTools } from './learning-tools';
import { filterKey, positionOfRow, rowAt, type ReviewOrder } from './review-list';
import { movedPosition, reviewActionForKey } from './review-keys';
import { ReviewTable } from './review-table';
import { RowPanel } from './row-panel';
import { TextFilter } from './text-filter';
import { planDetail, planStatus, textIndexDetail, textIndexStatus } from './list-wait-status';
import { useBulkDecision } from './use-bulk-decision';
import { useLearning } from './use-learning';
import { useOpeningPosition } from './use-opening-position';
import { useReviewList } from './use-review-list';
import { useReviewView } from './use-review-view';
import { isFiltered, reviewFilterOf, viewFilterWords } from './review-view';

type Decision =
  | { kind: 'choose'; rank: number }
  | { kind: 'reject' }
  | { kind: 'skip' }
  | { kind: 'clear' }
  | { kind: 'undo' }
  | { kind: 'acceptAll'; minConfidence: number; pattern?: string };

const ORDER_LABELS: Record<ReviewOrder, string> = { file: 'Sheet order', confidence_desc: 'Most confident first', confidence_asc: 'Least confident first' };
/** The jobs whose detail says how far the work a list waits for is: the project's plan, the text index. */
const PLAN = ['plan'] as const;
const TEXT_INDEX = ['textIndex'] as const;

export function ReviewScreen({ projectId }: { projectId: number }) {
  const toast = useToast();
  const project = useEngineData(`project:${projectId}`, () => api.callOrThrow('projects.get', { projectId }));
  // Filters and order as the user last left them in this project (after going elsewhere, or a reload).
  const [reviewView, changeView] = useReviewView(projectId);
  const { states, text, order, jobChanges, changedOnly, group } = reviewView;
  // Any other filter takes the place of a group of rows like this (the engine lists a group alone).
  const setText = (next: string) => changeView({ text: next, group: null });
  const query = useDebouncedValue(text, 250);
  const filter = useMemo(() => reviewFilterOf({ states, text: query, order, jobChanges, changedOnly, group }), [states, query, order, jobChanges, changedOnly, group]);
  const fKey = filterKey(projectId, filter);
  const [generation, setGeneration] = useState(0);
  const listKey = `${fKey}#${generation}`;
  const view = useReviewList(projectId, filter, listKey);
  const total = view.list.total ?? 0;
  // A list waits for the project's plan under way (a mapping being saved), a text filter on a large project then for
  // its text index: how far that is, while the list loads.
  const plan = useJobDetail(PLAN, projectId);
  const textIndex = useJobDetail(TEXT_INDEX, projectId);
  const loading = view.list.total === null;
  const planning = loading ? planStatus(plan) : null;
  const indexing = loading && planning === null && query.trim() !== '' ? textIndexStatus(textIndex) : null;
  const waitingFor = planning ?? indexing;
  const waitingDetail = planning ? planDetail(plan) : indexing ? textIndexDetail(textIndex) : undefined;

  // A list opens on its first row that needs a decision (found in its first page, or asked for), not on row 1.
  const [selection, setSelection] = useState<{ key: string | null; position: number }>({ key: null, position: 0 });
  const opening = useOpeningPosition(projectId, view.list, filter, fKey);
  const selected = selection.key === fKey ? Math.min(selection.position, Math.max(0, total - 1)) : Math.min(opening, Math.max(0, total - 1));
  const select = (position: number) => setSelection({ key: fKey, position });
  const row = rowAt(view.list, selected);
  const [pageRows, setPageRows] = useState(15);

  const rowIndex = row?.rowIndex ?? null;
  const settledRowIndex = useDebouncedValue(rowIndex, 60);
  // The list's generation is in the key: a refresh (or a bulk decision) changes rows behind the one on show.
  const detail = useEngineData(settledRowIndex === null ? null : `row:${projectId}:${settledRowIndex}#${generation}`, () =>
    api.callOrThrow('review.row', { projectId, rowIndex: settledRowIndex ?? 0 }),
  );
  const latestRowIndex = useRef(rowIndex);
  useEffect(() => {
    latestRowIndex.current = rowIndex;
  }, [rowIndex]);

  const [applyToIdentical, setApplyToIdentical] = useState(false);
  const [actionError, setActionError] = useState<ContractError | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [acceptOpen, setAcceptOpen] = useState(false);
  const [refreshOpen, setRefreshOpen] = useState(false);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [learnedOpen, setLearnedOpen] = useState(false);
  // A refresh changes rows' people and job changes (and their counts): the list is read again.
  const reloadProject = project.reload;
  const refreshed = useCallback(() => {
    setGeneration((g) => g + 1);
    reloadProject();
  }, [reloadProject]);
  // An accept of many confident rows takes a while, and so does undoing it: it says how far
  // it is where the accept's button was, also when the screen is opened again while it goes on.
  const bulk = useBulkDecision(projectId, refreshed);
  const accepting = bulk.action === 'accept';
  // A small undo says nothing (it is over at once); a large one, or one found going on, shows its line.
  const bulkShown = accepting || (bulk.action === 'undo' && (bulk.progress !== null || bulk.foundGoingOn));
  // Either stops at its next slice: an accept takes back what it wrote, an undo keeps what it took back (undo again
  // finishes it).
  const { cancelling, cancel: cancelBulk } = useCancel(bulkShown, () => void api.call('job.cancel', { projectId, kind: accepting ? 'accept' : 'undo' }));
  const gridRef = useRef<HTMLDivElement>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  // Learning lifts rows and raises their confidence: the list is read again. One of rows waiting for review alone (a
  // group, or "To review") loses the rows decided meanwhile, so it opens again on its first row.
  const waitingOnly = group !== null || (states?.length === 1 && states[0] === 'to_review');
  const learned = useCallback(() => {
    if (waitingOnly) setSelection({ key: null, position: 0 });
    setGeneration((g) => g + 1);
  }, [waitingOnly]);
  const learning = useLearning(projectId, learned);
  // The offer whose rows the last action accepted: an undo of it offers them again.
  const acceptedOffer = useRef<string | null>(null);

  const applyResult = (decision: Decision, result: DecisionResult) => {
    view.setFigures(result);
    // Each row decided by hand is a label; after every few the review learns from them in the background.
    if (decision.kind === 'choose' || decision.kind === 'reject') learning.noteDecisions(result.changed);
    if (decision.kind === 'undo' && result.changed > 0 && acceptedOffer.current) learning.bringBack(acceptedOffer.current);
    acceptedOffer.current = decision.kind === 'acceptAll' && decision.pattern && result.changed > 0 ? decision.pattern : null;
    if (acceptedOffer.current) learning.putAway(acceptedOffer.current);
    if (result.row) {
      view.update({ type: 'rowChanged', row: result.row });
      if (result.row.rowIndex === latestRowIndex.current) detail.setValue(result.row);
    }
    if (decision.kind === 'undo') {
      if (!result.row) toast('Nothing to undo.');
      else {
        const position = positionOfRow(view.list, result.row.rowIndex);
        if (position !== null) select(position);
        // An action over many rows (an accept of confident rows, "apply to identical") is undone whole.
        toast(result.changed > 1 ? `Undid the last action on ${plural(result.changed, 'row')}.` : `Undid the decision on row ${formatCount(result.row.rowNumber)}.`);
      }
    }
    if (decision.kind === 'acceptAll') toast(result.changed === 0 ? 'No rows were at or above that confidence.' : `Accepted ${plural(result.changed, 'row')}. Undo takes them all back.`, 'success');
    else if (result.changed > 1 && decision.kind !== 'undo') toast(`Applied to ${plural(result.changed, 'row')}.`, 'success');
    if (result.changed > 1 || decision.kind === 'acceptAll') setGeneration((g) => g + 1);
  };

  const decide = async (decision: Decision, target = row) => {
    const needsRow = decision.kind !== 'undo' && decision.kind !== 'acceptAll';
    if (needsRow && !target) return;
    if (decision.kind === 'choose' && target && decision.rank > target.candidateCount) {
      toast(target.candidateCount === 0 ? 'This row has no candidates to choose from.' : `This row has only ${plural(target.candidateCount, 'candidate')}.`, 'warning');
      return;
    }
    setActionError(null);
    const at = { projectId, rowIndex: target?.rowIndex ?? 0 };
    let pending: Promise<CallResult<'decisions.undo'>>;
    switch (decision.kind) {
      case 'choose':
        pending = api.call('decisions.choose', { ...at, rank: decision.rank, applyToIdentical });
        break;
      case 'reject':
        pending = api.call('decisions.reject', { ...at, applyToIdentical });
        break;
      case 'skip':
        pending = api.call('decisions.skip', at);
        break;
      case 'clear':
        pending = api.call('decisions.clear', at);
        break;
      case 'undo':
        pending = api.call('decisions.undo', { projectId });
        break;
      case 'acceptAll':
        pending = api.call('decisions.acceptAtOrAbove', { projectId, minConfidence: decision.minConfidence, ...(decision.pattern ? { pattern: decision.pattern } : {}) });
        break;
    }
    // Move on at once so fast reviewers are never held up by the save; the answer patches the row when it lands.
    if (decision.kind === 'choose' || decision.kind === 'reject' || decision.kind === 'skip') select(Math.min(Math.max(0, total - 1), selected + 1));
    // A button pressed in the panel would keep the focus on the next row's button; give the keys back to the table.
    if (document.activeElement instanceof HTMLElement && document.activeElement.closest('.review-side')) gridRef.current?.focus();
    const many = decision.kind === 'acceptAll' ? 'accept' : decision.kind === 'undo' ? 'undo' : null;
    if (many) bulk.setStarted(many);
    const result = await pending;
    if (many) bulk.setStarted(null);
    if (!result.ok && result.error.kind === 'cancelled' && many) {
      // An accept's rows are as they were; an undo's taken back so far stay so. Either way, read again.
      toast(result.error.message);
      setGeneration((g) => g + 1);
      return;
    }
    if (!result.ok) {
      setActionError({ ...result.error, message: target && needsRow ? `Row ${formatCount(target.rowNumber)}: ${result.error.message}` : result.error.message });
      return;
    }
    applyResult(decision, result.value);
  };

  // Keys name candidates by their place in the list (most likely first); decisions name them by the service's rank.
  // A key pressed before the row's candidates have loaded reads them first, so fast reviewers are never refused.
  const chooseAt = async (position: number) => {
    const target = row;
    if (!target) return;
    if (target.candidateCount < position) return decide({ kind: 'choose', rank: position });
    const shown =
      detail.value?.rowIndex === target.rowIndex ? detail.value : await api.call('review.row', { projectId, rowIndex: target.rowIndex }).then((r) => (r.ok ? r.value : null));
    const candidate = shown?.candidates[position - 1];
    if (candidate) await decide({ kind: 'choose', rank: candidate.rank }, target);
  };

  useShortcuts((event) => {
    const action = reviewActionForKey(event);
    if (!action) return false;
    const deciding = action.type === 'choose' || action.type === 'acceptTop' || action.type === 'reject' || action.type === 'skip' || action.type === 'undo';
    // Holding a decision key down must not decide a whole screen of rows.
    if (deciding && event.repeat) return true;
    switch (action.type) {
      case 'move':
      case 'page':
      case 'edge':
        select(movedPosition(selected, total, action, pageRows));
        return true;
      case 'choose':
        void chooseAt(action.rank);
        return true;
      case 'acceptTop':
        if (row?.bestRank != null) void decide({ kind: 'choose', rank: row.bestRank });
        else void decide({ kind: 'choose', rank: 1 });
        return true;
      case 'reject':
        void decide({ kind: 'reject' });
        return true;
      case 'skip':
        void decide({ kind: 'skip' });
        return true;
      case 'undo':
        void decide({ kind: 'undo' });
        return true;
      case 'help':
        setHelpOpen(true);
        return true;
      case 'focusFilter':
        filterRef.current?.focus();
        return true;
      case 'groups':
        setGroupsOpen(true);
        return true;
    }
  });

  const changeStates = (next: RowState[] | null) => {
    const same = group === null && JSON.stringify(next) === JSON.stringify(states);
    if (same) setGeneration((g) => g + 1);
    else changeView({ states: next, group: null });
    gridRef.current?.focus();
  };
  const clearFilters = () => {
    changeView({ states: null, jobChanges: null, changedOnly: false, text: '', group: null });
    gridRef.current?.focus();
  };
  // A group of rows like this is shown alone: the other filters give way to it.
  const showGroup = (picked: Pick<ReviewGroup, 'pattern' | 'words'>) => {
    setGroupsOpen(false);
    changeView({ states: null, jobChanges: null, changedOnly: false, text: '', group: { pattern: picked.pattern, words: picked.words } });
    gridRef.current?.focus();
  };
  const acceptOffer = (change: LearningChange) => void decide({ kind: 'acceptAll', minConfidence: change.confidence, pattern: change.pattern });
  const filterWords = viewFilterWords(reviewView);
  // With more than one filter on, the count says they add up ("40 rows · both filters"), and names them to a screen
  // reader and in its tooltip ("40 rows: Moved and changed at last refresh"): the chips lit show which they are.
  const filtersNamed = filterWords.length > 1 && !loading ? filterWords.join(' and ') : null;
  const countWords = filtersNamed ? `${plural(total, 'row')}: ${filtersNamed}` : undefined;

  const onWindowChange = (window: ListWindow) => {
    view.showWindow(window.start, window.end);
    setPageRows(window.pageRows);
  };

  const shownDetail = detail.value;
  const stale = shownDetail !== undefined && shownDetail.rowIndex !== rowIndex;

  return (
    <div className="screen screen--fill review-screen">
      <ProjectHeader projectId={projectId} current="review" summary={project.value?.summary} title="Review the matches" />
      <div className="review-toolbar review-toolbar--chips">
        {/* None pressed while a group of rows like this is shown: it lists its rows alone. */}
        <FilterChips counts={view.counts} active={group ? [] : states} onChange={changeStates} />
        <LearningTools group={group} onGroups={() => setGroupsOpen(true)} onLearned={() => setLearnedOpen(true)} />
      </div>
      {view.jobChanges && (totalMatched(view.jobChanges.jobChanges) > 0 || view.jobChanges.lastRefreshAt) && (
        <div className="review-toolbar">
          <JobChangeChips
            summary={view.viewJobChanges}
            andState={states !== null}
            active={jobChanges}
            changedOnly={changedOnly}
            onChange={(next) => {
              changeView({ jobChanges: next, group: null });
              gridRef.current?.focus();
            }}
            onChangedOnly={(on) => {
              changeView({ changedOnly: on, group: null });
              gridRef.current?.focus();
            }}
          />
          <span className="review-toolbar__spacer" />
          <Button onClick={() => setRefreshOpen(true)} data-testid="refresh-open" title="Ask the service again for the people the matched rows chose, and see who moved or left">
            Refresh people…
          </Button>
        </div>
      )}
      <div className="review-toolbar" data-testid="review-filter-bar">
        <TextFilter inputRef={filterRef} value={text} onChange={setText} onLeave={() => gridRef.current?.focus()} />
        {/* Busy while the search's index fills: a screen reader then tells the rows found, not every percent on the way. */}
        <span className="muted review-total" aria-live="polite" aria-busy={waitingFor !== null || undefined} data-testid="review-total" title={waitingDetail ?? countWords}>
          {loading ? (waitingFor ?? 'Loading…') : plural(total, 'row')}
          {filtersNamed && (
            <>
              <span aria-hidden="true"> · {filterWords.length === 2 ? 'both filters' : `all ${filterWords.length} filters`}</span>
              <span className="sr-only" data-testid="review-filter-words">
                : {filtersNamed}
              </span>
            </>
          )}
        </span>
        {isFiltered(reviewView) && (
          <Button variant="quiet" small onClick={clearFilters} data-testid="review-clear-filters" title="Show every row of the project">
            <span>
              Clear<span className="review-clear__long"> filters</span>
            </span>
          </Button>
        )}
        {/* A group lists its rows in sheet order: no order to pick. */}
        {!group && (
          <label className="review-order">
            <span className="sr-only">Order</span>
            <select value={order} onChange={(event) => changeView({ order: event.target.value as ReviewOrder })} data-testid="review-order">
              {(Object.keys(ORDER_LABELS) as ReviewOrder[]).map((o) => (
                <option key={o} value={o}>
                  {ORDER_LABELS[o]}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="review-toolbar__spacer" />
        {bulkShown && bulk.action ? (
          <>
            <ProgressLine
              parts={cancelling ? CANCELLING : decisionsProgressParts(bulk.action, bulk.progress)}
              label={accepting ? 'Accept progress' : 'Undo progress'}
              testId={accepting ? 'accept-progress' : 'undo-progress'}
            />
            {accepting ? (
              <Button variant="secondary" onClick={cancelBulk} disabled={cancelling} title="Cancel the accept: every row stays as it was (Esc)" aria-keyshortcuts="Escape" data-testid="accept-cancel">
                Cancel
              </Button>
            ) : (
              <Button variant="secondary" onClick={cancelBulk} disabled={cancelling} title="Stop the undo: the rows taken back so far stay so; undo again to finish (Esc)" aria-keyshortcuts="Escape" data-testid="undo-cancel">
                Stop
              </Button>
            )}
          </>
        ) : (
          <Button onClick={() => setAcceptOpen(true)} data-testid="accept-all-auto" title="Accept every row still to review whose best candidate is at or above a confidence you pick">
            {/* One span: the button's flex gap would open between its pieces of text. */}
            <span>
              Accept confident<span className="review-accept__long"> rows</span>…
            </span>
          </Button>
        )}
        <Button variant="quiet" onClick={() => setHelpOpen(true)} aria-keyshortcuts="?">
          <span className="review-keys__label">Keys</span> <kbd>?</kbd>
        </Button>
      </div>
      <LearningLine
        learning={learning}
        showing={group?.pattern === learning.offer?.pattern}
        busy={bulk.action !== null}
        foundLearning={bulk.action === 'learn' ? { progress: bulk.progress } : null}
        onAccept={acceptOffer}
        onShow={showGroup}
      />
      <ErrorBanner error={learning.error} title="Could not learn from your decisions" onDismiss={learning.dismissError} />
      <ErrorBanner error={view.error} title="Could not load the rows" onRetry={() => setGeneration((g) => g + 1)} />
      <ErrorBanner error={actionError} title="The decision was not saved" onDismiss={() => setActionError(null)} />
      <div className="review-layout">
        <ReviewTable
          gridRef={gridRef}
          list={view.list}
          selected={selected}
          resetKey={fKey}
          onSelect={select}
          onWindowChange={onWindowChange}
          onClearFilters={isFiltered(reviewView) ? clearFilters : undefined}
        />
        <aside className={`review-side ${stale ? 'is-stale' : ''}`} aria-label="Selected row" aria-busy={stale || undefined}>
          <RowPanel
            busy={stale || (row !== undefined && shownDetail === undefined)}
            detail={row ? shownDetail : undefined}
            error={detail.error}
            applyToIdentical={applyToIdentical}
            onApplyToIdenticalChange={setApplyToIdentical}
            onChoose={(rank) => void decide({ kind: 'choose', rank })}
            onReject={() => void decide({ kind: 'reject' })}
            onSkip={() => void decide({ kind: 'skip' })}
            onUndo={() => void decide({ kind: 'undo' })}
            onClear={() => void decide({ kind: 'clear' })}
          />
        </aside>
      </div>
      {helpOpen && <KeyHelp onClose={() => setHelpOpen(false)} />}
      {groupsOpen && (
        <GroupDialog
          projectId={projectId}
          current={group?.pattern ?? null}
          onPick={showGroup}
          onClear={() => {
            setGroupsOpen(false);
            clearFilters();
          }}
          onClose={() => setGroupsOpen(false)}
        />
      )}
      {learnedOpen && (
        <LearnedDialog
          projectId={projectId}
          learning={learning.learning}
          onLearn={learning.learn}
          onReset={() => {
            learning.forget();
            learned();
            toast('What was learned is forgotten: the rows it lifted wait for review as before.');
          }}
          onClose={() => setLearnedOpen(false)}
        />
      )}
      {refreshOpen && (
        <RefreshDialog
          projectId={projectId}
          onClose={() => setRefreshOpen(false)}
          onFinished={refreshed}
          onShowChanged={() => {
            setRefreshOpen(false);
            changeView({ states: null, jobChanges: null, changedOnly: true, text: '' });
          }}
        />
      )}
      {acceptOpen && (
        <AcceptConfidentDialog
          projectId={projectId}
          onClose={() => setAcceptOpen(false)}
          onAccept={(minConfidence) => {
            setAcceptOpen(false);
            void decide({ kind: 'acceptAll', minConfidence });
          }}
        />
      )}
    </div>
  );
}
