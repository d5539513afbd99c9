// How one person's name is written differently, and how two people's names nearly agree. The dataset uses the
// spelling pairs to seed near-name colleagues, find uses the nicknames as a real service's synonym list does, and
// the evaluation set writes sheet rows with both. All keys are folded (foldText) forms.
import { foldText } from './scoring';

/** A short form and the given names it stands for: "Bob Smith" in a CRM is Robert Smith on his profile. */
const NICKNAME_GROUPS: readonly (readonly [string, ...string[]])[] = [
  ['bob', 'robert'], ['rob', 'robert'], ['bobby', 'robert'], ['bill', 'william'], ['will', 'william'], ['billy', 'william'],
  ['rick', 'richard'], ['dick', 'richard'], ['rich', 'richard'], ['jim', 'james'], ['jimmy', 'james'], ['jack', 'john'],
  ['johnny', 'john'], ['mike', 'michael'], ['tom', 'thomas'], ['tommy', 'thomas'], ['joe', 'joseph'], ['charlie', 'charles'],
  ['chuck', 'charles'], ['chris', 'christopher', 'christine', 'christina', 'christian'], ['dan', 'daniel'], ['danny', 'daniel'],
  ['matt', 'matthew'], ['tony', 'anthony'], ['don', 'donald'], ['steve', 'steven', 'stephen'], ['andy', 'andrew'],
  ['drew', 'andrew'], ['josh', 'joshua'], ['ken', 'kenneth'], ['ed', 'edward'], ['ted', 'edward'], ['eddie', 'edward'],
  ['tim', 'timothy'], ['jeff', 'jeffrey'], ['nick', 'nicholas'], ['ben', 'benjamin'], ['sam', 'samuel', 'samantha'],
  ['greg', 'gregory'], ['alex', 'alexander', 'alexis', 'aleksandr'], ['pat', 'patrick', 'patricia'], ['pete', 'peter'],
  ['zach', 'zachary'], ['liz', 'elizabeth'], ['beth', 'elizabeth'], ['betty', 'elizabeth'], ['maggie', 'margaret'],
  ['peggy', 'margaret'], ['patty', 'patricia'], ['jen', 'jennifer'], ['jenny', 'jennifer'], ['kate', 'katherine', 'catherine'],
  ['katie', 'katherine', 'catherine', 'kathleen'], ['kathy', 'katherine', 'kathleen'], ['cathy', 'catherine'],
  ['sue', 'susan'], ['debbie', 'deborah'], ['becky', 'rebecca'], ['vicky', 'victoria'], ['tina', 'christina'],
  ['pam', 'pamela'], ['kim', 'kimberly'], ['jess', 'jessica'], ['nate', 'nathan'], ['vince', 'vincent'], ['sasha', 'aleksandr'],
  ['dima', 'dmitri'], ['manny', 'manuel'], ['ron', 'ronald'], ['larry', 'lawrence'], ['abby', 'abigail'], ['gabe', 'gabriel'],
];

/** Folded nickname or given name -> the folded names it can stand for, both ways (Bob -> Robert, Robert -> Bob). */
export const NICKNAMES: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    let set = map.get(a);
    if (!set) map.set(a, (set = new Set()));
    set.add(b);
  };
  for (const [short, ...full] of NICKNAME_GROUPS) {
    for (const name of full) {
      link(short, name);
      link(name, short);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v].sort()]));
})();

/** Nicknames of a given name as a sheet would write them ("Robert" -> ["Bob", "Bobby", "Rob"]), capitalized. */
export function nicknamesOf(firstName: string): string[] {
  const folded = foldText(firstName);
  if (folded.includes(' ')) return [];
  const shorts = NICKNAME_GROUPS.filter(([, ...full]) => full.includes(folded)).map(([short]) => short);
  return shorts.map((s) => s.charAt(0).toUpperCase() + s.slice(1));
}

/**
 * Given names that are different names, yet one letter or one sound apart: two colleagues called Anna and Anne
 * are two people. Spelled as profiles spell them.
 */
const SPELLING_GROUPS: readonly (readonly string[])[] = [
  ['Anna', 'Anne', 'Ann'], ['Jon', 'John'], ['Katherine', 'Catherine', 'Kathryn'], ['Steven', 'Stephen'], ['Sara', 'Sarah'],
  ['Eric', 'Erik'], ['Mark', 'Marc'], ['Philip', 'Phillip'], ['Brian', 'Bryan'], ['Alan', 'Allan', 'Allen'],
  ['Teresa', 'Theresa'], ['Carl', 'Karl'], ['Nicole', 'Nichole'], ['Sophia', 'Sofia'], ['Michelle', 'Michele'],
  ['Christina', 'Cristina'], ['Jeffrey', 'Geoffrey'], ['Lisa', 'Liza'], ['Jean', 'Jane'], ['Joan', 'Joanne'],
  ['Daniel', 'Daniela'], ['Julia', 'Julie'], ['Diana', 'Diane'], ['Louis', 'Luis'],
];

/** Other given names one spelling away ("Anna" -> ["Anne", "Ann"]); empty when the name has none. */
export function spellingVariantsOf(firstName: string): string[] {
  const group = SPELLING_GROUPS.find((g) => g.includes(firstName));
  return group ? group.filter((n) => n !== firstName) : [];
}

/** Folded given name -> its folded spelling variants ("anna" -> ["ann", "anne"]), for find to return near-names. */
export const SPELLING_VARIANTS: ReadonlyMap<string, readonly string[]> = new Map(
  SPELLING_GROUPS.flatMap((group) => group.map((name) => [foldText(name), group.filter((n) => n !== name).map(foldText)] as const)),
);

/** Every given name that has a spelling variant, so the dataset can pick a model with one. */
export const NAMES_WITH_SPELLING_VARIANTS: ReadonlySet<string> = new Set(SPELLING_GROUPS.flat());

const VOWELS = 'aeiou';

/**
 * The word with one letter changed, as a typist or another family branch spells it ("Hansen" -> "Hanson"):
 * a vowel after the first two letters swapped for another, or, with no such vowel, the last letter doubled.
 * `pick` chooses among the possibilities (0..1), so the caller's random stream decides.
 */
export function oneLetterVariant(word: string, pick: number): string {
  const spots: number[] = [];
  for (let i = 2; i < word.length; i++) if (VOWELS.includes(word[i]!)) spots.push(i);
  if (spots.length === 0) return word + word[word.length - 1];
  const at = spots[Math.floor(pick * spots.length) % spots.length]!;
  const others = VOWELS.replace(word[at]!, '');
  const replacement = others[Math.floor(pick * 97) % others.length]!;
  return word.slice(0, at) + replacement + word.slice(at + 1);
}
