/**
 * An advertisement is published to be taken: the trading account publishes one (a buy advertisement of the quote coin,
 * which offers nothing the account holds), and a second account (credentials.peer) must find it in ad-list, under its
 * token and fiat (U-P2P-LISTED, a should: the document lists advertisements without saying whose). Which side lists it
 * is open (U-NS-P2P-LIST-SIDE: the side it names, or the side of those who take it), so both are walked. A walk that
 * reaches the end of both sides without it, twice a second apart, fails; one cut short by the page limit decides
 * nothing. The document has no operation that withdraws an advertisement: it stays, and the report lists it.
 */
import { needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Reply } from '../../harness/http/client.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { advertisement, findMember, idText, rowsOf } from './fund-requests.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import { askValid, sendPatiently } from './patient.ts';
import { rolesOf, settingsOf } from './profile.ts';
import { servedOp, withQuery } from './requests.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const LISTED = 'U-P2P-LISTED';
/** Pages walked per side before the walk gives up undecided (a live market may hold thousands). */
const MAX_PAGES = 20;

test('P2P listing: an advertisement one account publishes is listed to another', { tag: reqTags(LISTED) }, async ({ api, spec, profile, target, writes, identity, verify, notApplicable, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  const s = settingsOf(profile);
  const roles = rolesOf(profile);
  const why = !roles.includes('trade')
    ? 'the profile names no trading key (credentials.trade) to publish an advertisement'
    : !roles.includes('peer')
      ? 'the profile names no key of a second account (credentials.peer) to look for it'
      : !(profile.writes && writes.allowed) || !s.funded || !s.fundWrites.includes('createP2pAd')
        ? 'publishing an advertisement is a write the profile does not allow (writes, funded, settings.fundWrites: createP2pAd)'
        : s.p2p.merchant === false
          ? 'the profile says the account may not publish advertisements (settings.p2p.merchant false)'
          : undefined;
  if (why) return notApplicable(LISTED, why);
  fitTimeout(testInfo, { requests: 4 * MAX_PAGES + 10, waitMs: 5000 }, profile, !target.reference);
  const limit = s.paging.maxLimit;
  const token = s.markets.coins.quote;

  /** One side's pages, walked with the peer key to the end or MAX_PAGES: whether the advertisement was among them. */
  async function walk(side: 'buy' | 'sell', advId: string): Promise<{ found: boolean; ended: boolean; last?: Reply }> {
    let last: Reply | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const pageNum = s.p2p.firstPage + page;
      const query = { token, fiat: 'USD', side, pageNum, limit };
      last = await askValid(api, { method: 'GET', path: withQuery(servedOp(spec, 'listP2pAds').path, query), authenticate: true, credential: 'peer', label: `the ${side} advertisements of ${token} for USD, pageNum ${pageNum} of ${limit}, as another account sees them` }, s);
      needAccepted(last, `the ${side} advertisements, pageNum ${pageNum}, asked with the peer key`);
      const rows = rowsOf(last.json, 'listP2pAds', s);
      if (rows.some((row) => Object.values(row).some((v) => idText(v) === advId))) return { found: true, ended: true, last };
      if (rows.length < limit) return { found: false, ended: true, last };
    }
    return { found: false, ended: false, last };
  }

  const release = await takeLease(identity, FUNDS_LEASE, 'the P2P listing');
  try {
    await verify(LISTED, async () => {
      const ad = advertisement(s, 'fixed');
      const label = `a fixed-price buy advertisement of ${token} for USD, to be listed`;
      const made = await sendPatiently(api, { method: 'POST', path: servedOp(spec, 'createP2pAd').path, json: ad, authenticate: true, credential: 'trade', label }, s);
      needAccepted(made, label, { untested: true, why: 'there is no advertisement to look for' });
      const advId = idText(findMember((made.json as { data?: unknown } | undefined)?.data, 'advId'));
      if (!advId) throw new NotTested('the advertisement was accepted without data.advId: there is none to look for');
      const walked: Reply[] = [];
      for (let round = 1; round <= 2; round++) {
        // A listing may follow its publication by a moment: a second, then the walk again.
        if (round > 1) await new Promise((resolve) => setTimeout(resolve, 1000));
        const sides = [await walk('buy', advId), await walk('sell', advId)];
        if (sides.some((w) => w.found)) return;
        if (sides.some((w) => !w.ended)) throw new NotTested(`advertisement ${advId} was not among the first ${MAX_PAGES} pages of ${limit} of either side, and the list goes on`);
        walked.push(...sides.flatMap((w) => (w.last ? [w.last] : [])));
      }
      throw new RequirementViolation(LISTED, `advertisement ${advId}, published by the trading account, was not listed to the peer account on either side, walked to the end twice a second apart`, `listed under ${token} and USD`, [made.exchange, ...walked.slice(-2).map((r) => r.exchange)]);
    });
  } finally {
    release();
  }
}));
