/** How a long piece of work's status is coloured: going, paused or stopped by the user, done, partly failed, failed. */
export type ProgressTone = 'accent' | 'muted' | 'success' | 'warning' | 'danger';

/** Test ids of a panel's parts, where a test or a screen looks for them. */
interface PanelTestIds {
  panel?: string;
  status?: string;
  bar?: string;
  sentence?: string;
  counts?: string;
}

interface ProgressPanelProps {
  /** The work's status, as `data-status` (styles and tests read it); 'running' while it goes on. */
  status: string;
  /** Its status in a word or two, coloured by `tone`: "Matching", "Paused". */
  label: string;
  tone: ProgressTone;
  /** Done so far (0-100), or null while the work cannot tell how much is left (the bar then moves on its own). */
  percent: number | null;
  /** The bar's accessible name ("Run progress") and what it reads out besides its percent. */
  barLabel: string;
  barText: string;
  sentence: string;
  counts: readonly string[];
  className?: string;
  /** More data attributes of the panel, e.g. a run's outcome. */
  data?: Record<`data-${string}`, string>;
  testIds?: PanelTestIds;
}

/**
 * A long piece of work's progress, as a run, a refresh and a search show it: its status and percent, a bar, a sentence
 * of where it is, and its counts.
 */
export function ProgressPanel({ status, label, tone, percent, barLabel, barText, sentence, counts, className, data, testIds = {} }: ProgressPanelProps) {
  const sentenceClass = tone === 'danger' || tone === 'warning' ? `text-${tone}` : '';
  return (
    <div className={className ? `run-progress ${className}` : 'run-progress'} data-status={status} data-testid={testIds.panel} {...data}>
      <div className="run-progress__head">
        <strong className={`status status--${tone}`} data-testid={testIds.status}>
          {label}
        </strong>
        {percent !== null && <span>{percent}%</span>}
      </div>
      <div
        className={`progress progress--${tone}${percent === null ? ' progress--indefinite' : ''}`}
        role="progressbar"
        aria-label={barLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={barText}
        data-testid={testIds.bar}
      >
        <div className="progress__bar" style={{ width: percent === null ? undefined : `${percent}%` }} />
      </div>
      {/* A live region only once the work ends: a screen reader says the end once, not every change on the way. */}
      <p className={sentenceClass} role={status === 'running' ? undefined : 'status'} data-testid={testIds.sentence}>
        {sentence}
      </p>
      <ul className="run-progress__counts" data-testid={testIds.counts}>
        {counts.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
