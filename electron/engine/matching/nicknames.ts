// Given names that one person goes by interchangeably: Bob on the sheet, Robert on the profile. Each group is a
// formal name with its usual short forms and spelling variants, written folded (comparable(): lower case, no
// accents). A nickname says "could be the same person", never "is": two colleagues Bob and Robert Smith exist,
// so the confidence model weighs it well below an exact name, and it never accepts a row alone.
const GROUPS: readonly string[][] = [
  ['robert', 'bob', 'bobby', 'rob', 'robbie', 'bert'],
  ['william', 'bill', 'billy', 'will', 'willy', 'liam'],
  ['richard', 'rick', 'ricky', 'rich', 'richie', 'dick'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['john', 'jon', 'johnny', 'jack'],
  ['jonathan', 'jon', 'jonny', 'johnathan'],
  ['michael', 'mike', 'mikey', 'mick', 'mickey'],
  ['elizabeth', 'liz', 'lizzie', 'beth', 'betty', 'betsy', 'eliza', 'libby', 'liza'],
  ['katherine', 'catherine', 'kathryn', 'kate', 'katie', 'kathy', 'cathy', 'kat'],
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
  ['steven', 'stephen', 'steve'],
  ['matthew', 'matt'],
  ['nicholas', 'nick', 'nicky'],
  ['alexander', 'alex', 'sasha', 'sascha', 'aleksandr', 'alexandr'],
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
  ['jeffrey', 'jeff', 'geoffrey'],
  ['joshua', 'josh'],
  ['zachary', 'zach', 'zack'],
  ['nathaniel', 'nathan', 'nate'],
  ['peter', 'pete'],
  ['philip', 'phillip', 'phil'],
  ['raymond', 'ray'],
  ['lawrence', 'laurence', 'larry'],
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
  ['dmitri', 'dmitry', 'dima'],
  ['jose', 'pepe'],
  ['francisco', 'paco', 'pancho'],
  ['giuseppe', 'beppe', 'pino'],
  ['johannes', 'johann', 'hans'],
  ['stefan', 'stephan', 'steffen'],
  ['mohammed', 'muhammad', 'mohamed', 'mohammad'],
  ['youssef', 'yusuf', 'yousef'],
];

const GROUPS_OF = new Map<string, number[]>();
GROUPS.forEach((group, index) => {
  for (const name of group) {
    const list = GROUPS_OF.get(name);
    if (list) list.push(index);
    else GROUPS_OF.set(name, [index]);
  }
});

/** Whether two different folded given names belong to one nickname group (Bob / Robert, Jon / Jonathan). */
export function isNickname(a: string, b: string): boolean {
  if (a === b) return false;
  const groupsOfA = GROUPS_OF.get(a);
  const groupsOfB = GROUPS_OF.get(b);
  if (!groupsOfA || !groupsOfB) return false;
  return groupsOfA.some((g) => groupsOfB.includes(g));
}
