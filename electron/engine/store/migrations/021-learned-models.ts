import type { Migration } from '../migration';

// What a project learned from its reviewer's decisions (matching/learned-model.ts): the labels counted per reason
// pattern, under the model version they were counted with (a later model drops them, never mixes them in).
// base holds the state it started from (another project's, if the user chose it; '{}' otherwise), which a later
// learning counts its own labels on top of. rows_lifted counts the rows waiting for review the last learning lifted.
export const learnedModels: Migration = {
  version: 21,
  name: "what a project learned from its reviewer's decisions",
  up(db) {
    db.exec(`
      CREATE TABLE learned_models (
        project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        model_version INTEGER NOT NULL,
        patterns TEXT NOT NULL,
        base TEXT NOT NULL DEFAULT '{}',
        labels INTEGER NOT NULL,
        rows_lifted INTEGER NOT NULL,
        learned_at TEXT NOT NULL
      );
    `);
  },
};
