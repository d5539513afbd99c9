import { describe, expect, it } from 'vitest';
import { candidateFacts, jobChange } from '../../../electron/engine/matching';
import { companyLevel } from '../../../electron/engine/matching/assess-row';
import type { PersonJson } from '../../../shared/model';

const jobsOf = (jobs: object[]) => candidateFacts({ rank: 1, score: null, person: { name: 'Anna Smith', jobs } as PersonJson }).jobs;
const job = (company: string, ended: unknown = null, title = 'Engineer') => ({ title, company: { name: company }, started_at: '2018-01-01', ended_at: ended });

describe('jobChange', () => {
  it('no_change while the person works at the sheet\'s company, however it is spelled, also after coming back', () => {
    expect(jobChange('Globex', jobsOf([job('Globex Inc.')]))).toMatchObject({ status: 'no_change', date: null, currentCompany: 'Globex Inc.' });
    expect(jobChange('GLOBEX', jobsOf([job('Globex Inc.'), job('Hooli', '2021-01-01'), job('Globex', '2019-06-30')])).status).toBe('no_change');
  });

  it('moved: the job at the sheet\'s company ended and there is a current job elsewhere, dated by that end', () => {
    expect(jobChange('Globex', jobsOf([job('Hooli', null, 'CTO'), job('Globex, Inc.', '2024-03-31')]))).toEqual({
      status: 'moved',
      date: '2024-03-31',
      currentCompany: 'Hooli',
      currentTitle: 'CTO',
      reason: 'left Globex, Inc. 2024-03-31, now at Hooli',
    });
  });

  it('left: the job at the sheet\'s company ended and there is no current job', () => {
    expect(jobChange('Globex', jobsOf([job('Globex', 'March 2024'), job('Initech', '2019')]))).toMatchObject({ status: 'left', date: '2024-03', currentCompany: null });
  });

  it('unknown, with the reason, and never a guess', () => {
    expect(jobChange(null, jobsOf([job('Globex')]))).toMatchObject({ status: 'unknown', reason: 'the sheet has no company to compare with' });
    expect(jobChange('Globex', [])).toMatchObject({ status: 'unknown', reason: 'the record lists no jobs' });
    expect(jobChange('Globex', jobsOf([job('Hooli')]))).toMatchObject({ status: 'unknown', reason: 'Globex is not among the record\'s jobs' });
    // An end that cannot be read is not "moved".
    expect(jobChange('Globex', jobsOf([job('Hooli'), job('Globex', 'a while ago')]))).toMatchObject({ status: 'unknown', date: null });
    // Left Globex, but another job's end cannot be read: that job may go on, so not "left" either.
    expect(jobChange('Globex', jobsOf([job('Hooli', 'sometime'), job('Globex', '2020-01-01')]))).toMatchObject({ status: 'unknown' });
    // A company that does not even come close is not the sheet's.
    expect(jobChange('Globex', jobsOf([job('Initech')])).status).toBe('unknown');
  });

  it('a company close enough to count as evidence for the match counts for the job change too', () => {
    expect(jobChange('CYBERDYNE', jobsOf([job('Cyberdyne Systems')]))).toMatchObject({
      status: 'no_change',
      reason: 'works at Cyberdyne Systems now (close to CYBERDYNE)',
    });
    expect(jobChange('Sterling Cooper & Partners', jobsOf([job('Sterling Cooper')])).status).toBe('no_change');
    expect(jobChange('Black Mesa Research', jobsOf([job('Hooli'), job('Black Mesa', '2023-05-31')]))).toMatchObject({
      status: 'moved',
      date: '2023-05-31',
      reason: 'left Black Mesa (close to Black Mesa Research) 2023-05-31, now at Hooli',
    });
    expect(jobChange('Sterling Cooper & Partners', jobsOf([job('Sterling Cooper', '2024-02-29')]))).toMatchObject({ status: 'left', date: '2024-02-29' });
    // The sheet's very name wins over a close one: still at Globex, whatever happened at Globex Robotics.
    expect(jobChange('Globex', jobsOf([job('Globex Robotics', '2022-01-01'), job('Globex Inc.')])).status).toBe('no_change');
    // Of two close ones, the closer: the sheet's Granite Group is the one the person left, not Granite Inc.
    expect(jobChange('Granite Group International', jobsOf([job('Granite Inc.'), job('Granite Group LLC', '2022-01-31')]))).toMatchObject({
      status: 'moved',
      date: '2022-01-31',
      reason: 'left Granite Group LLC (close to Granite Group International) 2022-01-31, now at Granite Inc.',
    });
  });

  it('a company that only shares a word with a job on record is not the sheet\'s: unknown, never still there or moved', () => {
    expect(jobChange('Stone Analytics', jobsOf([job('Blue Stone Capital')]))).toMatchObject({ status: 'unknown', reason: 'Stone Analytics is not among the record\'s jobs' });
    expect(jobChange('Nova Analytics', jobsOf([job('Hooli'), job('Nova Robotics', '2021-03-31')])).status).toBe('unknown');
    expect(jobChange('Copper Pharma', jobsOf([job('Initech'), job('Meridian Ridge Pharma', '2020-01-31')])).status).toBe('unknown');
    expect(jobChange('Dupont & Söhne', jobsOf([job('Campbell & Söhne')])).status).toBe('unknown');
  });

  it('agrees with the reason the confidence model gives for the same row and person', () => {
    const cases: [string, object[]][] = [
      ['CYBERDYNE', [job('Cyberdyne Systems')]],
      ['Black Mesa Research', [job('Hooli'), job('Black Mesa', '2023-05-31')]],
      ['Sterling Cooper & Partners', [job('Sterling Cooper')]],
      ['Globex', [job('Globex Robotics')]],
      ['Globex', [job('Initech')]],
      ['Stone Analytics', [job('Blue Stone Capital')]],
      ['Nova Analytics', [job('Hooli'), job('Nova Robotics', '2021-03-31')]],
      ['Granite Group International', [job('Granite Inc.'), job('Granite Group LLC', '2022-01-31')]],
    ];
    for (const [company, jobs] of cases) {
      const facts = jobsOf(jobs);
      const evidence = companyLevel(company, facts);
      const change = jobChange(company, facts);
      const known = change.status !== 'unknown';
      expect({ company, known }).toEqual({ company, known: evidence.level !== 'differs' && evidence.level !== 'missing' });
      // The job the evidence names is the one the job change speaks of.
      if (evidence.job) expect(change.reason).toContain(evidence.job.company);
    }
  });
});
