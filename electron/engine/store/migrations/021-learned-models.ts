import type { Migration } from '../migration';

// What a project learned from its reviewer's decisions (matching/learned-model.ts): the labels counted per reason
// pattern, under the model version they were counted with (a later model drops them, never mixes them in).
// rows_lifted counts the rows waiting for review that the last learning lifted above the guard.
export const learnedModels: Migration = {
  version: 21,
  name: "what a project learned from its reviewer's decisions",
  up(db) {
    db.exec(`
      CREATE TABLE learned_models (
        project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        model_version INTEGER NOT NULL,
        patterns TEXT NOT NULL,
        labels INTEGER NOT NULL,
        rows_lifted INTEGER NOT NULL,
        learned_at TEXT NOT NULL
      );
    `);
  },
};
