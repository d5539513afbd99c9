import { describe, expect, it } from 'vitest';
import { candidateFacts, jobChange } from '../../../electron/engine/matching';
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
    // A close name ("Globex Robotics") is not the sheet's company.
    expect(jobChange('Globex', jobsOf([job('Globex Robotics')])).status).toBe('unknown');
  });
});
