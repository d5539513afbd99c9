// Seeded synthetic people for the simulator. Same seed and size -> the same people, byte for byte.
import { NAMES_WITH_SPELLING_VARIANTS, oneLetterVariant, spellingVariantsOf } from './name-variants';
import { deriveSeed, seededRandom, type Random } from './random';
import { companyKey, foldText } from './scoring';

/** `jobs.function` values seen on the real service. */
export const JOB_FUNCTIONS = [
  'Engineering', 'Information Technology', 'Marketing and Product', 'Sales and Support', 'Finance and Administration',
  'Human Resources', 'Business Management', 'Design', 'Data Science', 'Customer Success', 'Operations', 'Legal',
  'Research', 'Medical and Clinical',
] as const;
export type JobFunction = (typeof JOB_FUNCTIONS)[number];

/** `jobs.level` values seen on the real service, most junior first. */
export const JOB_LEVELS = ['Intern', 'Entry Level', 'Staff', 'Senior Staff', 'Manager', 'Director', 'VP', 'C-Team'] as const;
export type JobLevel = (typeof JOB_LEVELS)[number];

export interface Company {
  id: string;
  name: string;
  /** Company profile slug on the professional network. */
  social: string;
  domain: string;
  industry: string;
  employee_count: number;
  country: string;
}

export interface Job {
  title: string;
  level: JobLevel;
  function: JobFunction;
  started_at: string;
  /** null while the job is current. */
  ended_at: string | null;
  location: string;
  company: Company;
}

export interface Education {
  school: string;
  degree: string;
  field_of_study: string;
  started_at: string;
  ended_at: string;
}

export interface LocationDetails {
  country: string;
  locality: string;
  region: string;
}

export interface Person {
  id: string;
  name: string;
  first_name: string;
  last_name: string;
  /** Used for matching only: person records on the real service carry no e-mail, so replies leave it out. */
  email_address: string;
  /** Profile slug: lower-case, some with digits, a few non-ASCII. */
  linkedin: string;
  location: string;
  location_details: LocationDetails;
  country: string;
  /** "Title at Company" for the current job, null when the person has none. */
  position: string | null;
  /** Most recent first. */
  jobs: Job[];
  education?: Education[];
}

export interface Dataset {
  seed: number;
  people: Person[];
  companies: Company[];
}

const FIRST_NAMES = [
  'James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David',
  'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Nancy',
  'Daniel', 'Lisa', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven',
  'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle', 'Kenneth', 'Dorothy', 'Kevin', 'Carol',
  'Brian', 'Amanda', 'George', 'Melissa', 'Edward', 'Deborah', 'Ronald', 'Stephanie', 'Timothy', 'Rebecca', 'Jason',
  'Sharon', 'Jeffrey', 'Laura', 'Ryan', 'Cynthia', 'Jacob', 'Kathleen', 'Gary', 'Amy', 'Nicholas', 'Angela', 'Eric',
  'Helen', 'Jonathan', 'Anna', 'Stephen', 'Brenda', 'Justin', 'Pamela', 'Scott', 'Nicole', 'Brandon', 'Emma',
  'Benjamin', 'Samantha', 'Samuel', 'Katherine', 'Gregory', 'Christine', 'Frank', 'Rachel', 'Alexander', 'Catherine',
  'Patrick', 'Carolyn', 'Jack', 'Janet', 'Dennis', 'Ruth', 'Tyler', 'Heather', 'Aaron', 'Diane', 'Adam', 'Julie',
  'Henry', 'Joyce', 'Nathan', 'Victoria', 'Douglas', 'Olivia', 'Zachary', 'Kelly', 'Peter', 'Christina', 'Kyle',
  'Lauren', 'Ethan', 'Joan', 'Walter', 'Evelyn', 'Noah', 'Judith', 'Jeremy', 'Megan', 'Christian', 'Andrea', 'Keith',
  'Hannah', 'Sean', 'Grace', 'Jordan', 'Alice', 'Gabriel', 'Julia', 'Logan', 'Sophia', 'Vincent', 'Diana', 'Louis',
  'Natalie', 'Isabella', 'Charlotte', 'Mason', 'Rose', 'Philip', 'Alexis', 'Kayla', 'Jon', 'Ann', 'Jean',
  'José', 'María', 'Zoë', 'Łukasz', 'Søren', 'François', 'Björn', 'Jürgen', 'Renée', 'Chloé', 'Çağla', 'İbrahim',
  'Øyvind', 'Mónica', 'Inés', 'Ángel', 'Sebastián', 'Raúl', 'Joaquín', 'Noémie', 'Hélène', 'Léa', 'Maël', 'Anaïs',
  'Jiří', 'Tomáš', 'Zdeněk', 'Agnieszka', 'Małgorzata', 'Paweł', 'Wojciech', 'Grzegorz', 'Krzysztof', 'Katarzyna',
  'Ólafur', 'Guðrún', 'Þórir', 'Åsa', 'Märta', 'Jörg', 'Günter', 'Uwe', 'Sören', 'Mehmet', 'Ayşe', 'Emre', 'Elif',
  'Yusuf', 'Fatma', 'Oğuz', 'Ngọc', 'Minh', 'Thảo', 'Huy', 'Linh', 'Wei', 'Jie', 'Xin', 'Hao', 'Priya', 'Rahul',
  'Aarav', 'Ananya', 'Vikram', 'Deepika', 'Arjun', 'Kavya', 'Sanjay', 'Lakshmi', 'Hiroshi', 'Yuki', 'Haruto',
  'Sakura', 'Takeshi', 'Aiko', 'Min-jun', 'Seo-yeon', 'Ji-woo', 'Oluwaseun', 'Chinedu', 'Ngozi', 'Kwame', 'Amara',
  'Fatima', 'Omar', 'Layla', 'Youssef', 'Nour', 'Aleksandr', 'Dmitri', 'Olga', 'Svetlana', 'Iván', 'Natália',
  'João', 'Gonçalo', 'Siobhán', 'Seán', 'Niamh', 'Aoife', 'Eoin', 'Ciarán', 'Zsófia', 'Gábor', 'Ágnes', 'Ioana',
  'Ștefan', 'Răzvan', 'Mihai', 'Nikolaos', 'Eleni', 'Sofía', 'Jean-Luc', 'Marie-Claire', 'Ana-María', 'Anne-Sophie',
] as const;

const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'García', 'Miller', 'Davis', 'Rodríguez', 'Martínez',
  'Hernández', 'López', 'González', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee',
  'Pérez', 'Thompson', 'White', 'Harris', 'Sánchez', 'Clark', 'Ramírez', 'Lewis', 'Robinson', 'Walker', 'Young',
  'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyễn', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker',
  'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Müller', 'Schmidt', 'Schneider', 'Fischer',
  'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein',
  'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger', 'Hartmann', 'Lange', 'Strauß',
  "O'Brien", "O'Connor", "O'Neill", 'Murphy', 'Kelly', 'Walsh', 'Byrne', 'Ryan', 'McCarthy', 'MacDonald', 'Dubois',
  'Durand', 'Lefèvre', 'Moreau', 'Laurent', 'Girard', 'Bonnet', 'Dupont', 'Lambert', 'Fontaine', 'Rousseau',
  'Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Woźniak',
  'Dąbrowski', 'Kozłowski', 'Jensen', 'Nielsen', 'Hansen', 'Pedersen', 'Andersen', 'Christensen', 'Larsen',
  'Sørensen', 'Rasmussen', 'Jørgensen', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Öberg',
  'Åkesson', 'Lindqvist', 'Bjørnstad', 'Virtanen', 'Korhonen', 'Mäkinen', 'Nieminen', 'Hämäläinen', 'Rossi',
  'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo',
  'Conti', 'De Luca', 'Costa', 'Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Ferreira', 'Alves', 'Gonçalves',
  'Araújo', 'Rocha', 'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Öztürk', 'Aydın', 'Özdemir', 'Arslan',
  'Trần', 'Lê', 'Phạm', 'Hoàng', 'Phan', 'Vũ', 'Đặng', 'Bùi', 'Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang',
  'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Hu', 'Guo', 'Lin', 'He', 'Kim', 'Park', 'Choi', 'Jung', 'Kang',
  'Cho', 'Yoon', 'Jang', 'Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Itō', 'Yamamoto', 'Nakamura',
  'Kobayashi', 'Katō', 'Sharma', 'Patel', 'Singh', 'Kumar', 'Gupta', 'Reddy', 'Iyer', 'Nair', 'Mehta', 'Joshi',
  'Banerjee', 'Chatterjee', 'Okafor', 'Adeyemi', 'Mensah', 'Okonkwo', 'Abubakar', 'Haddad', 'Khalil', 'Nasser',
  'Hassan', 'Ivanov', 'Petrov', 'Smirnov', 'Kuznetsov', 'Popov', 'Sokolov', 'Novák', 'Svoboda', 'Dvořák', 'Černý',
  'Procházka', 'Kučera', 'Horváth', 'Nagy', 'Kovács', 'Tóth', 'Szabó', 'Papadopoulos', 'Georgiou', 'Popescu',
  'Ionescu', 'Dumitrescu', 'Šimić', 'Horvat', 'Kovačević', 'Babić', 'Jovanović', 'Petrović', 'Nikolić',
  'van der Berg', 'de Vries', 'Janssen', 'Bakker', 'Visser', 'Smit', 'de Jong', 'Ó Súilleabháin', 'Mac Giolla',
] as const;

/** Invented surnames, so a large dataset is not mostly namesakes. */
const SURNAME_HEADS = [
  'Ash', 'Black', 'Bright', 'Brook', 'Cald', 'Carr', 'Dal', 'Eld', 'Fair', 'Fern', 'Gold', 'Hal', 'Hart', 'Haw',
  'Holl', 'Kent', 'Kings', 'Lang', 'Lind', 'Mar', 'Mill', 'Moor', 'North', 'Oak', 'Pem', 'Pres', 'Rad', 'Ren',
  'Ros', 'Rut', 'Sand', 'Sher', 'Stan', 'Stock', 'Stone', 'Thorn', 'Tre', 'Wal', 'West', 'Whit', 'Wind', 'Wood',
  'Ber', 'Dor', 'Fal', 'Gren', 'Kor', 'Mal', 'Nor', 'Pal', 'Sel', 'Tor', 'Val', 'Vel', 'Zan', 'Hel', 'Bran', 'Cor',
];
const SURNAME_TAILS = [
  'ford', 'ley', 'ton', 'wood', 'well', 'by', 'man', 'son', 'field', 'ham', 'worth', 'more', 'dale', 'stein', 'berg',
  'mann', 'feld', 'ov', 'enko', 'escu', 'ini', 'elli', 'ez', 'ard', 'ier', 'ski', 'sky', 'vić', 'sen', 'ström',
  'qvist', 'holm', 'dahl', 'lund', 'gren', 'ling', 'croft', 'ridge', 'wick', 'ås',
];

const COMPANY_HEADS = [
  'Blue', 'Red', 'Silver', 'Golden', 'Bright', 'Clear', 'Swift', 'North', 'Summit', 'Nova', 'Apex', 'Prime',
  'Quantum', 'Stellar', 'Vertex', 'Urban', 'Pacific', 'Atlantic', 'Alpine', 'Nordic', 'Iron', 'Cedar', 'Maple',
  'Harbor', 'River', 'Crystal', 'Lunar', 'Solar', 'Bold', 'Evergreen', 'Granite', 'Copper', 'Falcon', 'Orbit',
  'Pioneer', 'Beacon', 'Meridian', 'Zenith', 'Cobalt', 'Aurora', 'Vista', 'Horizon', 'Keystone', 'Lighthouse',
  'Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Wayne', 'Stark', 'Tyrell', 'Cyberdyne', 'Soylent',
  'Café', 'Nørre', 'Größe', 'Élan', 'Señor', 'Kraków', 'Zürich', 'Øresund', 'Ärla', 'Brú',
];
const COMPANY_MIDDLES = [
  '', '', '', '', 'Harbor', 'Peak', 'Wave', 'Stone', 'Bridge', 'Field', 'Point', 'Ridge', 'Gate', 'Line', 'Path',
];
/** The last word of most companies' names, saying what they do: sheets often leave it out ("Cyberdyne"). */
export const COMPANY_NOUNS = [
  'Systems', 'Labs', 'Analytics', 'Dynamics', 'Networks', 'Solutions', 'Health', 'Energy', 'Logistics', 'Capital',
  'Ventures', 'Foods', 'Robotics', 'Media', 'Software', 'Bio', 'Pharma', 'Motors', 'Studios', 'Partners', 'Works',
  'Cloud', 'Data', 'Security', 'Devices', 'Consulting', 'Insurance', 'Retail', 'Mobility', 'Learning', 'Logistik',
  'Technologies', 'Group', 'Holdings', 'Industries', 'Payments', 'Games', 'Materials', 'Textiles', 'Brewing',
];
const LEGAL_SUFFIXES = ['', '', '', '', 'Inc', 'Inc.', 'LLC', 'Ltd', 'GmbH', 'SA', 'AG', 'BV', 'plc', 'Corp', 'ApS', 'AB'];
const INDUSTRIES = [
  'Software', 'Financial Services', 'Healthcare', 'Retail', 'Manufacturing', 'Education', 'Consulting', 'Media',
  'Telecommunications', 'Energy', 'Logistics', 'Biotechnology', 'Real Estate', 'Hospitality', 'Automotive',
  'Government', 'Non-profit', 'Insurance', 'Food and Beverage', 'Gaming',
];
const EMPLOYEE_BANDS = [10, 50, 200, 500, 1000, 5000, 10000, 50000];

const CITIES: readonly LocationDetails[] = [
  ['San Francisco', 'California', 'United States'], ['New York', 'New York', 'United States'],
  ['Austin', 'Texas', 'United States'], ['Seattle', 'Washington', 'United States'],
  ['Boston', 'Massachusetts', 'United States'], ['Chicago', 'Illinois', 'United States'],
  ['Denver', 'Colorado', 'United States'], ['Atlanta', 'Georgia', 'United States'],
  ['Toronto', 'Ontario', 'Canada'], ['Montréal', 'Quebec', 'Canada'], ['Vancouver', 'British Columbia', 'Canada'],
  ['London', 'England', 'United Kingdom'], ['Manchester', 'England', 'United Kingdom'],
  ['Edinburgh', 'Scotland', 'United Kingdom'], ['Dublin', 'Leinster', 'Ireland'], ['Paris', 'Île-de-France', 'France'],
  ['Lyon', 'Auvergne-Rhône-Alpes', 'France'], ['Berlin', 'Berlin', 'Germany'], ['München', 'Bavaria', 'Germany'],
  ['Hamburg', 'Hamburg', 'Germany'], ['Zürich', 'Zurich', 'Switzerland'], ['Genève', 'Geneva', 'Switzerland'],
  ['Wien', 'Vienna', 'Austria'], ['Amsterdam', 'North Holland', 'Netherlands'], ['Brussels', 'Brussels', 'Belgium'],
  ['København', 'Capital Region', 'Denmark'], ['Stockholm', 'Stockholm County', 'Sweden'], ['Oslo', 'Oslo', 'Norway'],
  ['Helsinki', 'Uusimaa', 'Finland'], ['Madrid', 'Community of Madrid', 'Spain'], ['Barcelona', 'Catalonia', 'Spain'],
  ['Lisbon', 'Lisbon', 'Portugal'], ['São Paulo', 'São Paulo', 'Brazil'], ['Mexico City', 'Mexico City', 'Mexico'],
  ['Bogotá', 'Bogotá', 'Colombia'], ['Buenos Aires', 'Buenos Aires', 'Argentina'], ['Kraków', 'Lesser Poland', 'Poland'],
  ['Warsaw', 'Masovia', 'Poland'], ['Praha', 'Prague', 'Czechia'], ['Budapest', 'Budapest', 'Hungary'],
  ['Bucharest', 'Bucharest', 'Romania'], ['Athens', 'Attica', 'Greece'], ['İstanbul', 'Istanbul', 'Turkey'],
  ['Tel Aviv', 'Tel Aviv District', 'Israel'], ['Dubai', 'Dubai', 'United Arab Emirates'],
  ['Bengaluru', 'Karnataka', 'India'], ['Mumbai', 'Maharashtra', 'India'], ['Singapore', 'Singapore', 'Singapore'],
  ['Hồ Chí Minh City', 'Hồ Chí Minh City', 'Vietnam'], ['Hanoi', 'Hanoi', 'Vietnam'], ['Tokyo', 'Tokyo', 'Japan'],
  ['Seoul', 'Seoul', 'South Korea'], ['Shanghai', 'Shanghai', 'China'], ['Sydney', 'New South Wales', 'Australia'],
  ['Melbourne', 'Victoria', 'Australia'], ['Auckland', 'Auckland', 'New Zealand'], ['Lagos', 'Lagos', 'Nigeria'],
  ['Nairobi', 'Nairobi County', 'Kenya'], ['Cape Town', 'Western Cape', 'South Africa'], ['Reykjavík', 'Capital Region', 'Iceland'],
].map(([locality, region, country]) => Object.freeze({ locality, region, country }));
/** "Locality, Region, Country" per city, shared by everyone living there. */
const CITY_LABELS = new Map(CITIES.map((c) => [c, `${c.locality}, ${c.region}, ${c.country}`]));

const ROLES: Record<JobFunction, { roles: string[]; manager: string; chief: string }> = {
  Engineering: { roles: ['Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'DevOps Engineer', 'Mobile Engineer', 'QA Engineer'], manager: 'Engineering Manager', chief: 'Chief Technology Officer' },
  'Information Technology': { roles: ['Systems Administrator', 'IT Support Specialist', 'Network Engineer', 'IT Analyst'], manager: 'IT Manager', chief: 'Chief Information Officer' },
  'Marketing and Product': { roles: ['Product Manager', 'Marketing Specialist', 'Product Marketing Manager', 'Growth Marketer', 'Content Strategist'], manager: 'Marketing Manager', chief: 'Chief Marketing Officer' },
  'Sales and Support': { roles: ['Account Executive', 'Sales Representative', 'Support Specialist', 'Sales Engineer'], manager: 'Sales Manager', chief: 'Chief Revenue Officer' },
  'Finance and Administration': { roles: ['Accountant', 'Financial Analyst', 'Controller', 'Office Administrator'], manager: 'Finance Manager', chief: 'Chief Financial Officer' },
  'Human Resources': { roles: ['Recruiter', 'HR Business Partner', 'Talent Acquisition Specialist', 'People Operations Specialist'], manager: 'HR Manager', chief: 'Chief People Officer' },
  'Business Management': { roles: ['Business Analyst', 'Strategy Consultant', 'Program Manager', 'Chief of Staff'], manager: 'General Manager', chief: 'Chief Executive Officer' },
  Design: { roles: ['Product Designer', 'UX Designer', 'Graphic Designer', 'UX Researcher'], manager: 'Design Manager', chief: 'Chief Design Officer' },
  'Data Science': { roles: ['Data Scientist', 'Data Analyst', 'Machine Learning Engineer', 'Data Engineer'], manager: 'Data Science Manager', chief: 'Chief Data Officer' },
  'Customer Success': { roles: ['Customer Success Manager', 'Account Manager', 'Onboarding Specialist'], manager: 'Customer Success Lead', chief: 'Chief Customer Officer' },
  Operations: { roles: ['Operations Analyst', 'Supply Chain Analyst', 'Logistics Coordinator'], manager: 'Operations Manager', chief: 'Chief Operating Officer' },
  Legal: { roles: ['Counsel', 'Paralegal', 'Compliance Officer'], manager: 'Legal Manager', chief: 'General Counsel' },
  Research: { roles: ['Research Scientist', 'Research Associate', 'Lab Technician'], manager: 'Research Manager', chief: 'Chief Scientific Officer' },
  'Medical and Clinical': { roles: ['Nurse', 'Physician', 'Clinical Research Coordinator', 'Pharmacist'], manager: 'Clinical Manager', chief: 'Chief Medical Officer' },
};

const SCHOOLS = [
  'Stanford University', 'Massachusetts Institute of Technology', 'University of Oxford', 'University of Cambridge',
  'ETH Zürich', 'Technische Universität München', 'Sorbonne Université', 'Universidad de Buenos Aires',
  'Universidade de São Paulo', 'University of Toronto', 'McGill University', 'Trinity College Dublin',
  'KTH Royal Institute of Technology', 'Københavns Universitet', 'Uniwersytet Jagielloński', 'Indian Institute of Technology Bombay',
  'National University of Singapore', 'University of Tokyo', 'Seoul National University', 'Tsinghua University',
  'University of Melbourne', 'University of Lagos', 'University of Cape Town', 'Universidad Complutense de Madrid',
  'Politecnico di Milano', 'Boğaziçi University', 'Université de Montréal', 'University of Washington',
  'Georgia Institute of Technology', 'University of Texas at Austin', 'Hanoi University of Science and Technology',
];
const DEGREES = ['Bachelor of Science', 'Bachelor of Arts', 'Master of Science', 'Master of Arts', 'MBA', 'PhD'];
const FIELDS_OF_STUDY = [
  'Computer Science', 'Economics', 'Business Administration', 'Mechanical Engineering', 'Mathematics', 'Psychology',
  'Marketing', 'Biology', 'Law', 'Design', 'Statistics', 'Nursing', 'Finance', 'History',
];
const MAIL_PROVIDERS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com', 'web.de', 'gmx.de', 'hotmail.fr', 'yandex.ru', 'qq.com'];

/** Data is laid out as of this month, so the wall clock never changes it. */
const NOW_MONTHS = 2026 * 12 + 0;

const LEGAL_TLDS: Record<string, string> = { GmbH: 'de', AG: 'ch', SA: 'fr', BV: 'nl', plc: 'co.uk', Ltd: 'co.uk', ApS: 'dk', AB: 'se' };

function slugWords(folded: string): string {
  return folded.replace(/ /g, '-');
}

function isAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

const dateTexts = new Map<number, string>();

/** "YYYY-MM-DD" for a month count (year * 12 + month - 1) and a day; cached, dates repeat a lot. */
function monthDate(months: number, day: number): string {
  const key = months * 32 + day;
  let text = dateTexts.get(key);
  if (text === undefined) {
    const year = Math.floor(months / 12);
    const month = (months % 12) + 1;
    text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    dateTexts.set(key, text);
  }
  return text;
}

/** Family firms: "Müller & Söhne", whose sheets write "Mueller and Soehne". */
const FAMILY_FIRM_TAILS = ['Söhne', 'Sons', 'Partners', 'Töchter', 'Brothers'];

function makeCompanies(count: number, rng: Random): Company[] {
  const companies: Company[] = [];
  const usedKeys = new Set<string>();
  const usedDomains = new Set<string>();
  for (let attempt = 0; companies.length < count; attempt++) {
    let core: string;
    const form = rng.next();
    let suffix = rng.pick(LEGAL_SUFFIXES);
    if (form < 0.12) {
      core = `${rng.pick(LAST_NAMES)} & ${rng.pick(LAST_NAMES)}`;
    } else if (form < 0.17) {
      core = `${rng.pick(LAST_NAMES)} & ${rng.pick(FAMILY_FIRM_TAILS)}`;
    } else if (form < 0.22) {
      // A bare brand needs its legal form to read as a company: "Globex Inc.", which sheets call "Globex".
      core = rng.pick(COMPANY_HEADS);
      suffix = rng.pick(LEGAL_SUFFIXES.filter(Boolean));
    } else {
      const middle = rng.pick(COMPANY_MIDDLES);
      // "Blueharbor" or "Blue Harbor": a company is written one way here and the other in sheets.
      const joined = middle ? (rng.chance(0.5) ? middle.toLowerCase() : ` ${middle}`) : '';
      core = `${rng.pick(COMPANY_HEADS)}${joined} ${rng.pick(COMPANY_NOUNS)}`;
    }
    // Past the natural combinations, numbered names keep very large pools unique.
    const base = attempt > count * 20 ? `${core} ${companies.length}` : core;
    // One company per key: two companies that differ only in spacing, legal form or umlauts would be one to a
    // reader of a sheet, so the service holds one.
    const key = companyKey(base);
    if (usedKeys.has(key)) continue;
    usedKeys.add(key);
    const folded = foldText(base);
    const name = suffix ? `${base} ${suffix}` : base;
    const slugBase = slugWords(folded);
    let domain = `${folded.replace(/ /g, '')}.${LEGAL_TLDS[suffix] ?? rng.pick(['com', 'com', 'io', 'co', 'ai'])}`;
    if (usedDomains.has(domain)) domain = `${folded.replace(/ /g, '-')}-${companies.length}.com`;
    usedDomains.add(domain);
    const band = rng.pick(EMPLOYEE_BANDS);
    companies.push({
      id: `c_${(companies.length + 1).toString(36).padStart(5, '0')}`,
      name,
      social: slugBase,
      domain,
      industry: rng.pick(INDUSTRIES),
      employee_count: band + rng.int(band),
      country: rng.pick(CITIES).country,
    });
  }
  return companies;
}

/** Every title a (function, level) pair can have, built once so 200,000 people share the strings. */
const TITLES: Record<string, readonly string[]> = (() => {
  const table: Record<string, string[]> = {};
  for (const fn of JOB_FUNCTIONS) {
    const { roles, manager, chief } = ROLES[fn];
    const byLevel: Record<JobLevel, string[]> = {
      Intern: roles.map((r) => `${r} Intern`),
      'Entry Level': roles.flatMap((r) => [`Junior ${r}`, `Associate ${r}`]),
      Staff: roles,
      'Senior Staff': roles.flatMap((r) => [`Senior ${r}`, `Senior ${r}`, `Lead ${r}`, `Principal ${r}`]),
      Manager: [manager],
      Director: [`Director of ${fn}`],
      VP: [`VP of ${fn}`, `Vice President, ${fn}`],
      'C-Team': [chief],
    };
    for (const level of JOB_LEVELS) table[`${fn}|${level}`] = byLevel[level];
  }
  return table;
})();

/** A title for a job of this function and level, as people of the dataset hold them. */
export function jobTitle(fn: JobFunction, level: JobLevel, rng: Random): string {
  return rng.pick(TITLES[`${fn}|${level}`]);
}

function makeJobs(rng: Random, companies: readonly Company[], home: string): Job[] {
  const count = rng.pick([1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5]);
  const current = rng.chance(0.87);
  let fn = rng.pick(JOB_FUNCTIONS);
  let level = rng.int(3);
  let months = NOW_MONTHS - 12 - rng.int(29 * 12);
  const jobs: Job[] = [];
  for (let i = 0; i < count; i++) {
    const start = months;
    const last = i === count - 1;
    let end = start + 6 + rng.int(84);
    if (end >= NOW_MONTHS - 1) end = NOW_MONTHS - 1;
    if (rng.chance(0.2)) fn = rng.pick(JOB_FUNCTIONS);
    if (i > 0 && rng.chance(0.55) && level < JOB_LEVELS.length - 1) level++;
    const jobLevel = JOB_LEVELS[level];
    jobs.push({
      title: jobTitle(fn, jobLevel, rng),
      level: jobLevel,
      function: fn,
      started_at: monthDate(start, 1 + rng.int(28)),
      ended_at: last && current ? null : monthDate(Math.max(end, start + 1), 1 + rng.int(28)),
      location: rng.chance(0.85) ? home : rng.pick(CITIES).locality,
      company: rng.pick(companies),
    });
    months = end + rng.int(4);
    // A short career stops early rather than running into the future.
    if (months >= NOW_MONTHS - 2) break;
  }
  if (current && jobs[jobs.length - 1].ended_at !== null) jobs[jobs.length - 1].ended_at = null;
  return jobs.reverse();
}

function makeEducation(rng: Random, firstJob: Job | undefined): Education[] | undefined {
  if (!rng.chance(0.7)) return undefined;
  const entries: Education[] = [];
  const startYear = firstJob ? Number(firstJob.started_at.slice(0, 4)) : 2015;
  const degrees = rng.chance(0.25) ? 2 : 1;
  for (let i = 0; i < degrees; i++) {
    const endYear = startYear - (degrees - 1 - i) * 2;
    entries.push({
      school: rng.pick(SCHOOLS),
      degree: DEGREES[Math.min(DEGREES.length - 1, i * 2 + rng.int(2))],
      field_of_study: rng.pick(FIELDS_OF_STUDY),
      started_at: `${endYear - (i === 0 ? 4 : 2)}-09-01`,
      ended_at: `${endYear}-06-30`,
    });
  }
  return entries.reverse();
}

/**
 * An item of a list ordered most common first, drawn so the head is far more likely than the tail: a few names
 * are shared by many people (James Smith), most by few, as in any real population.
 */
function commonFirst<T>(items: readonly T[], rng: Random): T {
  return items[Math.floor(items.length * rng.next() ** NAME_SKEW)]!;
}

/** 1 = uniform; 2 gives the first of 270 first names about 6% of people. */
const NAME_SKEW = 2;

function lastName(rng: Random): string {
  if (rng.chance(0.45)) {
    const head = rng.pick(SURNAME_HEADS);
    const tail = rng.pick(SURNAME_TAILS);
    return head + tail;
  }
  const first = commonFirst(LAST_NAMES, rng);
  if (rng.chance(0.05)) return `${first}${rng.chance(0.5) ? '-' : ' '}${rng.pick(LAST_NAMES)}`;
  return first;
}

/** Of the people after the first few: the exact name of someone earlier, at one of that person's employers. */
const SAME_NAME_COLLEAGUE_RATE = 0.012;
/** Of the people after the first few: a name one spelling or one letter away from someone earlier, at that person's employer. */
const NEAR_NAME_COLLEAGUE_RATE = 0.02;
/** Of same-name colleagues: both at the company now (the rest held it as a past job). */
const SAME_CURRENT_EMPLOYER_SHARE = 0.6;

type Relation = { kind: 'same-name' | 'near-name'; model: Person; first: string; last: string };

/** A name a letter away from the model's: a spelling variant of the given name, else a typo in a plain surname. */
function nearNameOf(model: Person, rng: Random): { first: string; last: string } | null {
  const variants = spellingVariantsOf(model.first_name);
  if (variants.length > 0) return { first: rng.pick(variants), last: model.last_name };
  if (/^[A-Za-z]{5,}$/.test(model.last_name)) return { first: model.first_name, last: oneLetterVariant(model.last_name, rng.next()) };
  return null;
}

/** Who this person is related to by name, if anyone: decided by the seeded stream only. */
function relationFor(people: readonly Person[], made: number, rng: Random): Relation | null {
  const roll = rng.next();
  if (made < 10 || roll >= SAME_NAME_COLLEAGUE_RATE + NEAR_NAME_COLLEAGUE_RATE) return null;
  if (roll < SAME_NAME_COLLEAGUE_RATE) {
    const model = people[rng.int(made)]!;
    return { kind: 'same-name', model, first: model.first_name, last: model.last_name };
  }
  // A few tries at a model whose given name has a spelling variant (Anna/Anne), the pairs people mix up most.
  let model = people[rng.int(made)]!;
  for (let tries = 0; tries < 3 && !NAMES_WITH_SPELLING_VARIANTS.has(model.first_name); tries++) model = people[rng.int(made)]!;
  const near = nearNameOf(model, rng);
  return near ? { kind: 'near-name', model, ...near } : null;
}

/** Puts the model's latest employer into this person's jobs: as the current job, or (same-name, sometimes) a past one. */
function joinModelEmployer(jobs: Job[], relation: Relation, rng: Random): void {
  const modelJobs = relation.model.jobs;
  if (modelJobs.length === 0 || jobs.length === 0) return;
  const company = modelJobs[0]!.company;
  const asPast = relation.kind === 'same-name' && !rng.chance(SAME_CURRENT_EMPLOYER_SHARE) && jobs.length > 1;
  if (asPast) {
    jobs[1 + rng.int(jobs.length - 1)]!.company = company;
  } else {
    jobs[0]!.company = company;
    jobs[0]!.ended_at = null;
  }
}

/**
 * Builds `count` people and a shared pool of about one company per hundred people. As on the real service,
 * common names recur (namesakes), some people share their exact name with someone at one of their employers
 * (now or in the past), and some have a colleague whose name is a spelling or a letter away (Anna and Anne).
 */
export function buildDataset(count: number, seed: number): Dataset {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`people must be a non-negative integer, got ${count}`);
  const rng = seededRandom(deriveSeed(seed, 'people'));
  const companies = makeCompanies(Math.min(20_000, Math.max(50, Math.round(count / 100))), seededRandom(deriveSeed(seed, 'companies')));
  const emails = new Set<string>();
  const slugs = new Set<string>();
  const folded = new Map<string, string>();
  const fold = (text: string) => {
    let f = folded.get(text);
    if (f === undefined) folded.set(text, (f = foldText(text)));
    return f;
  };
  const idMix = deriveSeed(seed, 'ids');
  const people: Person[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const relation = relationFor(people, i, rng);
    const first = relation ? relation.first : commonFirst(FIRST_NAMES, rng);
    const last = relation ? relation.last : lastName(rng);
    const name = `${first} ${last}`;
    const city = rng.pick(CITIES);
    const location = CITY_LABELS.get(city)!;
    const jobs = makeJobs(rng, companies, city.locality);
    if (relation) joinModelEmployer(jobs, relation, rng);
    const currentJob = jobs[0]?.ended_at === null ? jobs[0] : undefined;

    const f = fold(first).replace(/ /g, '');
    const l = fold(last).replace(/ /g, '');
    const mailDomain = currentJob && rng.chance(0.55) ? currentJob.company.domain : rng.pick(MAIL_PROVIDERS);
    const style = rng.int(4);
    let local = style === 0 ? `${f}.${l}` : style === 1 ? `${f[0]}${l}` : style === 2 ? `${f}${l}` : `${f}_${l}`;
    if (rng.chance(0.2)) local += String(rng.int(100));
    let email = `${local}@${mailDomain}`;
    for (let n = 2; emails.has(email); n++) email = `${local}${n}@${mailDomain}`;
    emails.add(email);

    let slug = !isAscii(name) && rng.chance(0.15)
      ? name.normalize('NFC').toLowerCase().replace(/['’]/g, '').replace(/[\s]+/g, '-')
      : rng.chance(0.85) ? `${slugWords(fold(first))}-${slugWords(fold(last))}` : `${f}${l}`;
    if (rng.chance(0.15)) slug += `-${rng.int(1000)}`;
    while (slugs.has(slug)) slug = `${slug.replace(/-[0-9a-f]{8}$/, '')}-${(rng.int(0xffffffff) >>> 0).toString(16).padStart(8, '0')}`;
    slugs.add(slug);

    // A bijection of the index (odd multiplier mod 2^32), so ids are unique yet look random.
    const idNumber = Math.imul((i + 1) ^ idMix, 0x9e3779b1) >>> 0;
    people[i] = {
      id: `p_${idNumber.toString(36).padStart(7, '0')}`,
      name,
      first_name: first,
      last_name: last,
      email_address: email,
      linkedin: slug,
      location,
      // Shared (and frozen) per city: thousands of people live in each.
      location_details: city,
      country: city.country,
      position: currentJob ? `${currentJob.title} at ${currentJob.company.name}` : null,
      jobs,
    };
    const education = makeEducation(rng, jobs[jobs.length - 1]);
    if (education) people[i].education = education;
  }
  return { seed, people, companies };
}

/** The person as the service sends it: everything but the e-mail. */
export function publicPerson(person: Person): Omit<Person, 'email_address'> {
  const { email_address: _email, ...rest } = person;
  return rest;
}
