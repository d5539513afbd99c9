import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/model';
import { InvalidSetting, getSettings, openDatabase, updateSettings } from '../../../electron/engine/store';
import { tempFolder } from './temp-folder';

function open() {
  return openDatabase(join(tempFolder(), 'matchdesk.db'));
}

describe('settings', () => {
  it('starts from the defaults', () => {
    const db = open();
    try {
      expect(getSettings(db)).toEqual(DEFAULT_SETTINGS);
    } finally {
      db.close();
    }
  });

  it('saves a patch, keeps the other keys, and survives a reopen', () => {
    const file = join(tempFolder(), 'matchdesk.db');
    const db = openDatabase(file);
    const expected: Settings = { ...DEFAULT_SETTINGS, concurrency: 8, activeProfileId: 'p1' };
    expect(updateSettings(db, { concurrency: 8 })).toEqual({ ...DEFAULT_SETTINGS, concurrency: 8 });
    expect(updateSettings(db, { activeProfileId: 'p1' })).toEqual(expected);
    db.close();
    const again = openDatabase(file);
    try {
      expect(getSettings(again)).toEqual(expected);
      const rule = { enabled: false, minConfidence: 0.9, minLead: 0.2 };
      expect(updateSettings(again, { autoAccept: rule, activeProfileId: null }).autoAccept).toEqual(rule);
      expect(getSettings(again).activeProfileId).toBeNull();
    } finally {
      again.close();
    }
  });

  it('falls back to the default for each missing, garbled or mistyped stored value', () => {
    const db = open();
    try {
      const put = db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
      put.run('concurrency', '{not json');
      put.run('cacheTtlDays', '"thirty"');
      put.run('autoAccept', JSON.stringify({ enabled: false, minConfidence: 'high', minLead: 2 }));
      put.run('activeProfileId', '42');
      put.run('someFutureKey', '"kept but ignored"');
      expect(getSettings(db)).toEqual({
        ...DEFAULT_SETTINGS,
        autoAccept: { ...DEFAULT_SETTINGS.autoAccept, enabled: false },
      });
    } finally {
      db.close();
    }
  });

  it('reads a rule saved before the confidence model as on or off, with the new threshold', () => {
    const db = open();
    try {
      db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('autoAccept', JSON.stringify({ exactSingle: false, minScore: 0.8, minLead: 0.1 }));
      expect(getSettings(db).autoAccept).toEqual({ ...DEFAULT_SETTINGS.autoAccept, enabled: false });
    } finally {
      db.close();
    }
  });

  it('refuses an invalid value and writes nothing from that patch', () => {
    const db = open();
    try {
      expect(() => updateSettings(db, { cacheTtlDays: 7, concurrency: 0 })).toThrow(InvalidSetting);
      expect(() => updateSettings(db, { autoAccept: { enabled: true } as Settings['autoAccept'] })).toThrow(/autoAccept/);
      expect(() => updateSettings(db, { autoAccept: { enabled: true, minConfidence: 0.3, minLead: 0.5 } })).toThrow(/autoAccept/);
      expect(getSettings(db)).toEqual(DEFAULT_SETTINGS);
    } finally {
      db.close();
    }
  });

  it('hands out copies, so a caller cannot change the defaults', () => {
    const db = open();
    try {
      const pristine = structuredClone(DEFAULT_SETTINGS);
      const s = getSettings(db);
      s.autoAccept.enabled = !s.autoAccept.enabled;
      s.concurrency = 99;
      expect(DEFAULT_SETTINGS).toEqual(pristine);
      expect(getSettings(db)).toEqual(pristine);
    } finally {
      db.close();
    }
  });
});
