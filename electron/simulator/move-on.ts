// The world moving on, so a refresh has something to find: some people's current job ends and a new one starts
// elsewhere, some leave without a new job, the rest stay where they are. Seeded and separate from the dataset's own
// stream: building a dataset is untouched by it, and the same seed over the same dataset moves the same people to
// the same places on the same dates.
import { jobTitle, type Company, type Dataset, type Job, type Person } from './dataset';
import { deriveSeed, seededRandom, type Random } from './random';

export interface MoveOnOptions {
  /** Of the people with a current job, the share whose job ends now, 0 to 1. */
  share: number;
  seed: number;
  /** Of those whose job ends, the share who start no new one (default 0.2). */
  leaveShare?: number;
  /**
   * Of those whose job ends, the share whose record carries an end that cannot be read as a date ("sometime in
   * 2026"), as awkward records on the real service may: a client must not call that a move (default 0).
   */
  unreadableDates?: number;
  /**
   * Of those whose job ends, the share whose record leaves the end out (the ended job reads as still going on beside
   * the new one): a client sees no move there, and must not invent one (default 0).
   */
  missingDates?: number;
  /** Of everyone, the share who change their profile slug: the old one no longer finds them (default 0). */
  newProfiles?: number;
}

/** Who changed, by person id: the ground truth a test compares a refresh with. */
export interface MoveOnReport {
  /** The month the jobs ended in, YYYY-MM: after every date the dataset held before. */
  month: string;
  moved: string[];
  left: string[];
  /** Of moved and left, those whose ended job carries an unreadable end. */
  unreadable: string[];
  /** Of moved and left, those whose ended job carries no end at all. */
  missing: string[];
  /** People found under a new profile slug only, with the slug they had. */
  newProfiles: { id: string; oldSlug: string }[];
}

const DEFAULT_LEAVE_SHARE = 0.2;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Changes `dataset` in place (people's jobs and positions) and says who moved and who left. */
export function moveOn(dataset: Dataset, options: MoveOnOptions): MoveOnReport {
  const { share, seed } = options;
  const leaveShare = options.leaveShare ?? DEFAULT_LEAVE_SHARE;
  const unreadableShare = options.unreadableDates ?? 0;
  const missingShare = options.missingDates ?? 0;
  const newProfileShare = options.newProfiles ?? 0;
  const shares = [['share', share], ['leaveShare', leaveShare], ['unreadableDates', unreadableShare], ['missingDates', missingShare], ['newProfiles', newProfileShare]] as const;
  for (const [name, value] of shares) {
    if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1, got ${value}.`);
  }
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be a whole number, got ${seed}.`);
  const rng = seededRandom(deriveSeed(seed, 'move-on'));
  // One month after the latest date on file, so a second move comes after the first.
  const month = monthAfter(latestDate(dataset.people));
  const report: MoveOnReport = { month, moved: [], left: [], unreadable: [], missing: [], newProfiles: [] };
  // Its own stream, so asking for new profiles leaves who moves where as it was.
  const profiles = seededRandom(deriveSeed(seed, 'move-on-profiles'));
  const slugs = newProfileShare > 0 ? new Set(dataset.people.map((p) => p.linkedin)) : null;
  for (const person of dataset.people) {
    if (slugs && profiles.chance(newProfileShare)) {
      const oldSlug = person.linkedin;
      let slug = `${oldSlug}-${(profiles.int(0xffffff) >>> 0).toString(16)}`;
      while (slugs.has(slug)) slug = `${slug}${profiles.int(10)}`;
      slugs.add(slug);
      person.linkedin = slug;
      report.newProfiles.push({ id: person.id, oldSlug });
    }
    const current = person.jobs[0];
    if (!current || current.ended_at !== null || !rng.chance(share)) continue;
    const leaves = rng.chance(leaveShare);
    const unreadable = rng.chance(unreadableShare);
    const missing = !unreadable && missingShare > 0 && profiles.chance(missingShare);
    // The day is drawn whatever is written, so awkward records leave who moves where as it was.
    const dated = `${month}-${day(rng)}`;
    const ended = missing ? null : unreadable ? `sometime in ${month.slice(0, 4)}` : dated;
    const endedJob: Job = { ...current, ended_at: ended };
    if (leaves) {
      person.jobs = [endedJob, ...person.jobs.slice(1)];
      report.left.push(person.id);
    } else {
      const next = newJob(current, dataset.companies, month, rng);
      person.jobs = [next, endedJob, ...person.jobs.slice(1)];
      report.moved.push(person.id);
    }
    if (unreadable) report.unreadable.push(person.id);
    if (missing) report.missing.push(person.id);
    setPosition(person);
  }
  return report;
}

function newJob(previous: Job, companies: readonly Company[], month: string, rng: Random): Job {
  let company = rng.pick(companies);
  while (company === previous.company && companies.length > 1) company = rng.pick(companies);
  return {
    title: jobTitle(previous.function, previous.level, rng),
    level: previous.level,
    function: previous.function,
    started_at: `${month}-${day(rng)}`,
    ended_at: null,
    location: previous.location,
    company,
  };
}

function setPosition(person: Person): void {
  const current = person.jobs[0]?.ended_at === null ? person.jobs[0] : undefined;
  person.position = current ? `${current.title} at ${current.company.name}` : null;
}

function day(rng: Random): string {
  return String(1 + rng.int(28)).padStart(2, '0');
}

function latestDate(people: readonly Person[]): string {
  let latest = '0000-00-00';
  for (const person of people) {
    for (const job of person.jobs) {
      if (job.started_at > latest && ISO_DATE.test(job.started_at)) latest = job.started_at;
      if (job.ended_at !== null && job.ended_at > latest && ISO_DATE.test(job.ended_at)) latest = job.ended_at;
    }
  }
  return latest;
}

function monthAfter(date: string): string {
  if (!ISO_DATE.test(date) || date.startsWith('0000')) return '2026-02';
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
}
