import { describe, expect, it } from 'vitest';
import { breakableParts } from '../../renderer/src/ui/breakable-text';

describe('breakable text', () => {
  it('cuts a profile link after its separators, keeping the two slashes of https:// and every word whole', () => {
    expect(breakableParts('https://www.linkedin.com/in/layla-sandfeld-258/')).toEqual(['https://', 'www.', 'linkedin.', 'com/', 'in/', 'layla-', 'sandfeld-', '258/']);
  });

  it('cuts e-mails and paths at their separators too, and leaves plain words alone', () => {
    expect(breakableParts('patricia_akesson@solarridge.example')).toEqual(['patricia_', 'akesson@', 'solarridge.', 'example']);
    expect(breakableParts('C:\\Users\\me\\Matchdesk')).toEqual(['C:\\', 'Users\\', 'me\\', 'Matchdesk']);
    expect(breakableParts('Joan Valsky')).toEqual(['Joan Valsky']);
    expect(breakableParts('')).toEqual(['']);
  });
});
