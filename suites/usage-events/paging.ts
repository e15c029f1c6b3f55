/**
 * Reading a query's whole list of events, whatever paging the target uses. The document shows neither the list's
 * shape nor its paging (D-NS-LIST-PAGING, D-NS-PAGE-SIZE): the profile may state the style (settings.paging.style);
 * otherwise each answer says how to go on: a next cursor, a total, or pages that stop bringing anything new. A page
 * shorter than the one asked for ends the list only once the target has served a longer one (it may cap every page),
 * so a capped page is never read as the end of the list, nor the events after it as never ingested.
 */
import { getAt } from '../../harness/json-pointer.ts';
import type { Reply } from '../../harness/http/client.ts';
import { Inconclusive, NotTested } from '../../harness/verdicts.ts';
import { refused } from '../../harness/answers.ts';
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

export type PagingStyle = UsageEventsSettings['paging']['style'];
type Item = Record<string, unknown>;

/** What the reader knows beyond the answers: the names, and what of them the profile states. */
export interface PagingRules {
  paging: UsageEventsSettings['paging'];
  /** The style the profile states; undefined: follow what each answer shows. */
  style?: PagingStyle;
  /** Whether the profile states where the items are (otherwise a bare array or an answer's only array will do). */
  itemsStated: boolean;
  /** Whether the profile states where an answer gives the total (otherwise the usual places are looked at too). */
  totalStated: boolean;
  /** Whether the profile states the page size to ask for (otherwise a target that refuses it is asked without one). */
  sizeStated: boolean;
  /** The member that holds an event's id: an event shown on two pages (the list moved meanwhile) is kept once. */
  eventId: string;
}

export interface ListRead {
  items: Item[];
  replies: Reply[];
  /** The style the pages were read in (for the report's readings). */
  style: PagingStyle;
  /**
   * False when the reader stopped without knowing the list had ended: a full page was followed by one that brought
   * nothing new (a paging parameter the target ignores), so events beyond it may exist unseen.
   */
  complete: boolean;
}

/** More pages than this for one query is a loop, not a list. */
const MAX_PAGES = 50;

/** The items of one answer: where the profile says, else a bare array, the default member, or the answer's only array. */
export function itemsOf(json: unknown, rules: Pick<PagingRules, 'paging' | 'itemsStated'>): unknown[] | undefined {
  const at = getAt(json, rules.paging.items);
  if (Array.isArray(at) || rules.itemsStated) return Array.isArray(at) ? at : undefined;
  if (Array.isArray(json)) return json;
  if (json && typeof json === 'object') {
    const arrays = Object.values(json).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0];
  }
  return undefined;
}

/** Where answers usually give the number of events a query matches, beside the profile's pointer. */
const USUAL_TOTALS = ['/total', '/total_count', '/pagination/total', '/meta/total'];

/** The number of events the query matches, where the answer gives it. */
function totalOf(json: unknown, rules: Pick<PagingRules, 'paging' | 'totalStated'>): number | undefined {
  for (const pointer of rules.totalStated ? [rules.paging.total] : [rules.paging.total, ...USUAL_TOTALS]) {
    const v = getAt(json, pointer);
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  }
  return undefined;
}

/**
 * Every page of a query: `fetch` sends the query with the paging parameters given (names already the profile's) and
 * labels it with the page's number.
 */
export async function readAllPages(fetch: (paging: Record<string, string>, n: number) => Promise<Reply>, rules: PagingRules): Promise<ListRead> {
  const { paging } = rules;
  let style: PagingStyle | undefined = rules.style;
  // The page size asked for, until a target refuses it (where the profile does not state it): then its own.
  let askSize = true;
  const limit = (): Record<string, string> => (askSize ? { [paging.limit]: String(paging.size) } : {});
  const items: Item[] = [];
  const replies: Reply[] = [];
  const known = new Set<string>();
  const keyOf = (item: Item) => {
    const id = item?.[rules.eventId];
    return typeof id === 'string' || typeof id === 'number' ? `id:${id}` : `json:${JSON.stringify(item)}`;
  };
  const done = (complete = true): ListRead => ({ items, replies, style: style ?? 'page', complete });
  // The longest page served so far: a shorter one is the last (the size asked for may be more than the target serves).
  let longest = 0;
  let page = 1;
  let offset = 0;
  let triedOffset = false;
  const firstParams = (): Record<string, string> =>
    style === 'none' ? {} : style === 'cursor' ? limit() : style === 'offset' ? { ...limit(), [paging.offset]: '0' } : { [paging.page]: '1', ...limit() };
  let params = firstParams();
  for (let n = 1; n <= MAX_PAGES; n++) {
    const r = await fetch(params, n);
    replies.push(r);
    // Throttled, failing or not the API: the environment's trouble, and the list cannot be read to its end (thrown).
    if (refused(r, `the list of events (page ${n})`)) {
      // A page size the target refuses, where the profile does not state it: asked again without one.
      if (n === 1 && askSize && !rules.sizeStated && style !== 'none') {
        askSize = false;
        params = firstParams();
        continue;
      }
      // What the list needs may be what the profile does not state.
      throw new NotTested(`the list could not be read: GET /v1/events answered ${r.status} ${r.text.slice(0, 200)}; what the list needs may be what the profile does not state (settings.paging, settings.extras)`);
    }
    const found = itemsOf(r.json, rules) as Item[] | undefined;
    if (!found) throw new NotTested(`the list answer has no array of events at ${JSON.stringify(paging.items)} (settings.paging.items): ${r.text.slice(0, 200)}`);
    // An event a page shows again (the list moved between two pages) is kept once; twice on one page, it stays twice.
    const onPage = new Set<string>();
    for (const item of found) {
      const key = keyOf(item);
      if (known.has(key)) continue;
      onPage.add(key);
      items.push(item);
    }
    onPage.forEach((k) => known.add(k));
    if (style === 'none') return done();

    const next = getAt(r.json, paging.nextCursor);
    if (style === 'cursor' || (style === undefined && typeof next === 'string' && next !== '')) {
      style = 'cursor';
      if (typeof next !== 'string' || next === '') return done();
      params = { ...limit(), [paging.cursor]: next };
      continue;
    }
    // A cursor member that is there but null: the last page of a cursor list.
    if (style === undefined && next === null) return done();

    const total = totalOf(r.json, rules);
    // More than asked for: the target ignores the limit, and this answer is the whole list.
    if (found.length === 0 || (askSize && found.length > paging.size) || (total !== undefined && items.length >= total)) return done();
    if (onPage.size === 0) {
      // The paging parameter changed nothing: the target ignores it. With a total still ahead, an offset may work.
      if (style === undefined && total !== undefined && !triedOffset) {
        triedOffset = true;
        style = 'offset';
        offset = items.length;
        params = { ...limit(), [paging.offset]: String(offset) };
        continue;
      }
      // Events may lie beyond a full page whose next page repeated it; after a short one, the list had ended.
      return done(total === undefined && askSize && longest < paging.size);
    }
    if (total === undefined && longest > 0 && found.length < longest) return done();
    longest = Math.max(longest, found.length);
    offset += found.length;
    params = style === 'offset' ? { ...limit(), [paging.offset]: String(offset) } : { [paging.page]: String(++page), ...limit() };
  }
  throw new Inconclusive(`the list did not end within ${MAX_PAGES} pages`);
}
