import type { Migration } from '../migration';

// A cached re-run of a large sheet worked out every row's verdict again from its answer, though the sheet was the same
// and the project it was imported into before held every verdict already, which a copy does in a fraction of the time
// (docs/performance.md, "The cached re-run"). A verdict the model worked out now says what it was worked out by (the
// app and model, the mapping, the rule for accepting alone: runs/verdict-basis.ts), so a run may copy it to a row with
// the same cells and answer (runs/copied-verdicts.ts). NULL: worked out before this, or since changed by a person, a
// refresh or a reassessment; never copied.
export const verdictBasis: Migration = {
  version: 16,
  name: "row_status keeps what the model's verdict was worked out by",
  up(db) {
    db.exec('ALTER TABLE row_status ADD COLUMN verdict_basis INTEGER');
  },
};
