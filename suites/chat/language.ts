/**
 * "message (a fixed Spanish-language sentence ...)": is a 429 message Spanish? franc ranks languages by how close the
 * text's character trigrams are to each language's profile. Short texts and close relatives (Galician, Portuguese,
 * Catalan) are where it errs, so the decision is kept conservative:
 *  - the candidates are the major languages a web service's message is realistically written in (Galician, Asturian
 *    and the like would win on many short Spanish sentences and are left out);
 *  - a text of fewer than MIN_LETTERS Latin letters is not judged (a few words do not carry enough trigrams);
 *  - a text mostly in another script than Latin is not Spanish, whatever its length (the script alone decides it);
 *  - Spanish ranked first passes; another language ranked first fails only when Spanish is clearly behind it
 *    (its score below MARGIN of the first's); in between the language is not told apart, and nothing is asserted.
 */
import { francAll } from 'franc';

export const CANDIDATES = ['spa', 'eng', 'por', 'fra', 'deu', 'ita', 'nld', 'cat'] as const;
export const MIN_LETTERS = 20;
export const MARGIN = 0.95;

const NAMES: Record<string, string> = {
  spa: 'Spanish', eng: 'English', por: 'Portuguese', fra: 'French', deu: 'German', ita: 'Italian', nld: 'Dutch', cat: 'Catalan',
};

export type LanguageFinding =
  | { verdict: 'spanish'; detail: string }
  | { verdict: 'other'; detail: string }
  | { verdict: 'undecided'; detail: string };

const fixed = (x: number) => x.toFixed(3);

export function identifySpanish(text: string): LanguageFinding {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (letters >= 4 && latin < letters / 2) {
    return { verdict: 'other', detail: `${letters - latin} of its ${letters} letters are not in the Latin script Spanish is written in` };
  }
  if (latin < MIN_LETTERS) {
    return { verdict: 'undecided', detail: `it has ${latin} Latin letters, fewer than the ${MIN_LETTERS} a language can be told from reliably` };
  }
  const ranked = francAll(text, { only: [...CANDIDATES], minLength: 1 });
  const [top, topScore] = ranked[0] ?? ['und', 0];
  const spanish = ranked.find(([code]) => code === 'spa')?.[1] ?? 0;
  const ranking = ranked.slice(0, 3).map(([code, score]) => `${NAMES[code] ?? code} ${fixed(score)}`).join(', ');
  if (top === 'spa') return { verdict: 'spanish', detail: `identified as Spanish (${ranking})` };
  if (top !== 'und' && topScore > 0 && spanish < MARGIN * topScore) {
    return { verdict: 'other', detail: `identified as ${NAMES[top] ?? top}, Spanish well behind (${ranking}; Spanish ${fixed(spanish)})` };
  }
  return { verdict: 'undecided', detail: `its language is not told apart from Spanish (${ranking}; Spanish ${fixed(spanish)})` };
}
