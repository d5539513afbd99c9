import type { Migration } from '../migration';

// The model's m and u figures a project's learning estimated from its own sheet (matching/sheet-weights.ts), as JSON
// beside the labels it counted; NULL before a learning estimated them.
export const learnedWeights: Migration = {
  version: 23,
  name: "the model's figures a project's learning estimated from its sheet",
  up(db) {
    db.exec('ALTER TABLE learned_models ADD COLUMN weights TEXT');
  },
};
