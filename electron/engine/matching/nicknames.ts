// Given names that one person goes by interchangeably: Bob on the sheet, Robert on the profile. Each group is a
// formal name with its usual short forms, written folded (comparable(): lower case, no accents). A nickname says
// "could be the same person", never "is": two colleagues Bob and Robert Smith exist, so the confidence model weighs
// it well below an exact name, and it never accepts a row alone.
// Spelling variants (Steven / Stephen, Anna / Anne) are another matter: they are different names that parents
// chose, so two colleagues spelled so are two people; they count as a typo does (isSpellingVariant).
const GROUPS: readonly string[][] = [
  ['robert', 'bob', 'bobby', 'rob', 'robbie', 'bert'],
  ['william', 'bill', 'billy', 'will', 'willy', 'liam'],
  ['richard', 'rick', 'ricky', 'rich', 'richie', 'dick'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['john', 'johnny', 'jack'],
  ['jonathan', 'jon', 'jonny', 'johnathan'],
  ['michael', 'mike', 'mikey', 'mick', 'mickey'],
  ['elizabeth', 'liz', 'lizzie', 'beth', 'betty', 'betsy', 'eliza', 'libby', 'liza'],
  ['katherine', 'catherine', 'kathryn', 'kate', 'katie', 'kathy', 'kat'],
  ['catherine', 'cathy', 'cat'],
  ['margaret', 'maggie', 'meg', 'peggy', 'marge', 'greta'],
  ['thomas', 'tom', 'tommy'],
  ['christopher', 'chris', 'kit'],
  ['christine', 'christina', 'chris', 'tina'],
  ['daniel', 'dan', 'danny'],
  ['david', 'dave', 'davey'],
  ['joseph', 'joe', 'joey'],
  ['charles', 'charlie', 'chuck'],
  ['edward', 'ed', 'eddie', 'ted', 'ned'],
  ['anthony', 'tony'],
  ['andrew', 'andy', 'drew'],
  ['steven', 'steve'],
  ['stephen', 'steve'],
  ['matthew', 'matt'],
  ['nicholas', 'nick', 'nicky'],
  ['alexander', 'alex', 'sasha', 'sascha'],
  ['aleksandr', 'alex', 'sasha', 'sascha'],
  ['alexandra', 'alex', 'sasha', 'lexi'],
  ['patricia', 'pat', 'patty', 'trish'],
  ['patrick', 'pat', 'paddy'],
  ['jennifer', 'jen', 'jenny'],
  ['jessica', 'jess', 'jessie'],
  ['susan', 'sue', 'susie'],
  ['deborah', 'debbie', 'deb'],
  ['rebecca', 'becky', 'becca'],
  ['samuel', 'sam', 'sammy'],
  ['samantha', 'sam'],
  ['benjamin', 'ben', 'benny'],
  ['timothy', 'tim', 'timmy'],
  ['kenneth', 'ken', 'kenny'],
  ['ronald', 'ron', 'ronnie'],
  ['donald', 'don', 'donnie'],
  ['gregory', 'greg'],
  ['jeffrey', 'jeff'],
  ['geoffrey', 'geoff', 'jeff'],
  ['joshua', 'josh'],
  ['zachary', 'zach', 'zack'],
  ['nathaniel', 'nathan', 'nate'],
  ['peter', 'pete'],
  ['philip', 'phil'],
  ['phillip', 'phil'],
  ['raymond', 'ray'],
  ['lawrence', 'larry'],
  ['laurence', 'larry'],
  ['gerald', 'gerry', 'jerry'],
  ['frederick', 'fred', 'freddie'],
  ['albert', 'al', 'bert'],
  ['victoria', 'vicky', 'tori'],
  ['abigail', 'abby'],
  ['pamela', 'pam'],
  ['cynthia', 'cindy'],
  ['kimberly', 'kim'],
  ['amanda', 'mandy'],
  ['melissa', 'missy', 'mel'],
  ['stephanie', 'steph'],
  ['jacqueline', 'jackie'],
  ['dorothy', 'dot', 'dottie'],
  ['barbara', 'barb'],
  ['carolyn', 'carol', 'carrie'],
  ['judith', 'judy'],
  ['dmitri', 'dima'],
  ['dmitry', 'dima'],
  ['jose', 'pepe'],
  ['francisco', 'paco', 'pancho'],
  ['giuseppe', 'beppe', 'pino'],
  ['johannes', 'johann', 'hans'],
];

// Different names one letter or one sound apart, and one name transliterated several ways.
const SPELLING_GROUPS: readonly string[][] = [
  ['anna', 'anne', 'ann'],
  ['jon', 'john'],
  ['katherine', 'catherine', 'kathryn'],
  ['steven', 'stephen'],
  ['sara', 'sarah'],
  ['eric', 'erik'],
  ['mark', 'marc'],
  ['philip', 'phillip'],
  ['brian', 'bryan'],
  ['alan', 'allan', 'allen'],
  ['teresa', 'theresa'],
  ['carl', 'karl'],
  ['jeffrey', 'geoffrey'],
  ['lawrence', 'laurence'],
  ['sophia', 'sofia'],
  ['louis', 'luis'],
  ['stefan', 'stephan', 'steffen'],
  ['aleksandr', 'alexander', 'alexandr'],
  ['dmitri', 'dmitry'],
  ['mohammed', 'muhammad', 'mohamed', 'mohammad'],
  ['youssef', 'yusuf', 'yousef'],
];

function groupsByName(groups: readonly string[][]): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  groups.forEach((group, index) => {
    for (const name of group) {
      const list = byName.get(name);
      if (list) list.push(index);
      else byName.set(name, [index]);
    }
  });
  return byName;
}

const NICKNAME_GROUPS_OF = groupsByName(GROUPS);
const SPELLING_GROUPS_OF = groupsByName(SPELLING_GROUPS);

function shareGroup(byName: Map<string, number[]>, a: string, b: string): boolean {
  if (a === b) return false;
  const groupsOfA = byName.get(a);
  const groupsOfB = byName.get(b);
  return groupsOfA !== undefined && groupsOfB !== undefined && groupsOfA.some((g) => groupsOfB.includes(g));
}

/** Whether one folded given name is a short form of the other (Bob / Robert, Jon / Jonathan). */
export function isNickname(a: string, b: string): boolean {
  return shareGroup(NICKNAME_GROUPS_OF, a, b);
}

/** Whether two folded given names are spelling variants of each other (Steven / Stephen, Anna / Anne). */
export function isSpellingVariant(a: string, b: string): boolean {
  return shareGroup(SPELLING_GROUPS_OF, a, b);
}
