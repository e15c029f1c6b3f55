/**
 * The conditional rules of the fund operations, as a property (issue 23, part 1): each case sends one or two requests
 * with one thing wrong that the document's conditions or the account's limits make a refusal - an on-chain withdrawal
 * without chain, a transfer into isolated margin without symbol or of more than any balance, a loan with neither
 * pledgeAmount nor loanAmount, a partial loan repayment without amount, a fixed-price advertisement without price, a
 * floating one without premium, one whose minAmount exceeds its maxAmount, an earn subscription below the product's
 * minimum, a copy-trading transfer beyond the maximum transferable, an account-mode switch for an account that is not
 * a sub-account of the key's.
 *
 * An acceptance fails the rule outright. A refusal passes it only beside its control - the same request made right,
 * sent with the same key and accepted - and the control is a fund-moving write: it is sent only where
 * settings.fundWrites names the operation (on a live target, only where the profile names them; the embedded
 * reference's profile names them, targets/reference.yaml). Without it the rule is "not tested", the wrong requests are
 * still sent where the profile names their operation (a conforming target refuses them); to an operation it does not
 * name, nothing is sent. A control is sent once per test and its acceptance stands for the
 * later cases of the same operation, so that a run moves little: every accepted transfer (a control, or a wrong one a
 * faulty target took) is undone by the reverse transfer, a loan is repaid in full, and the rest (one unit withdrawn to
 * the profile's address or the peer account's deposit address, an earn subscription at the product's minimum, a buy
 * advertisement, a sub-account and its mode) is harmless on the reference.
 *
 * Two effects are cheap beside the controls and judged here too: a repeated withdrawal (the control again, with its
 * clientOid) withdraws nothing more (U-WITHDRAW-IDEMPOTENT), and the loan repaid in full at the end is no longer among
 * the ongoing loans (U-LOAN-REPAY-ALL). Whether a loan may give both amounts is open (U-NS-LOAN-BOTH-AMOUNTS): not
 * asserted. The required parameters and listed values of these operations are the generic checks' (U-GEN-*).
 */
import fc from 'fast-check';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { accepted, answerKind, describeAnswer, judged, mustBeRefused, needAccepted, type Control } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { depthFactor } from '../../harness/options.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import type { KeyRole } from '../../interfaces/unified-exchange/settings.ts';
import {
  BEYOND_ANY_BALANCE, advertisement, findMember, halfOf, idText, isolatedTransfer, loan, minimumEarnProduct, pairTransfer, reverseTransfer, rowsOf, withdrawal,
} from './fund-requests.ts';
import { flatEarnProducts, rolesOf, settingsOf, stated as isStatedIn } from './profile.ts';
import { freshClientOid, freshSubName, orderIdOf, recentWindow, servedOp, withQuery, type FundWrite } from './requests.ts';
import { uxScope } from './scope.ts';
import { sendPatiently } from './patient.ts';
import { reqTags } from './tags.ts';
import { test } from './test.ts';
import { keyedPacer } from './pacing.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import { announce, type Announced } from './fund-undo.ts';
import { guarded } from './guarded.ts';

/** One thing wrong, per rule. */
type Kind =
  | 'withdraw-no-chain'
  | 'isolated-no-symbol'
  | 'transfer-over-balance'
  | 'loan-no-amount'
  | 'repay-no-amount'
  | 'fixed-ad-no-price'
  | 'floating-ad-no-premium'
  | 'ad-min-over-max'
  | 'earn-below-min'
  | 'copy-over-max'
  | 'mode-foreign-target';

const RULE: Record<Kind, RequirementId> = {
  'withdraw-no-chain': 'U-WITHDRAW-CHAIN',
  'isolated-no-symbol': 'U-TRANSFER-ISOLATED-SYMBOL',
  'transfer-over-balance': 'U-TRANSFER-BALANCE',
  'loan-no-amount': 'U-LOAN-BORROW-AMOUNT',
  'repay-no-amount': 'U-LOAN-REPAY-AMOUNT',
  'fixed-ad-no-price': 'U-P2P-CREATE-FIXED-PRICE',
  'floating-ad-no-premium': 'U-P2P-CREATE-FLOATING-PREMIUM',
  'ad-min-over-max': 'U-P2P-CREATE-AMOUNTS',
  'earn-below-min': 'U-EARN-SUBSCRIBE-MIN',
  'copy-over-max': 'U-COPY-TRANSFER-MAX',
  'mode-foreign-target': 'U-ACCT-MODE-TARGET',
};
/** The fund-moving writes a kind's control needs the profile to name. */
const CONTROL_WRITES: Record<Kind, FundWrite[]> = {
  'withdraw-no-chain': ['withdraw'],
  'isolated-no-symbol': ['transfer'],
  'transfer-over-balance': ['transfer'],
  // A loan taken is repaid: the undo of a borrow is a repayment.
  'loan-no-amount': ['borrow', 'repayLoan'],
  'repay-no-amount': ['borrow', 'repayLoan'],
  'fixed-ad-no-price': ['createP2pAd'],
  'floating-ad-no-premium': ['createP2pAd'],
  'ad-min-over-max': ['createP2pAd'],
  'earn-below-min': ['subscribeEarn'],
  'copy-over-max': ['copyTransfer'],
  'mode-foreign-target': ['createSubAccount', 'adjustAccountMode'],
};
/** The operation a kind's wrong request goes to: none is sent unless the profile names it in settings.fundWrites. */
const OWN_WRITE: Record<Kind, FundWrite> = {
  'withdraw-no-chain': 'withdraw',
  'isolated-no-symbol': 'transfer',
  'transfer-over-balance': 'transfer',
  'loan-no-amount': 'borrow',
  'repay-no-amount': 'repayLoan',
  'fixed-ad-no-price': 'createP2pAd',
  'floating-ad-no-premium': 'createP2pAd',
  'ad-min-over-max': 'createP2pAd',
  'earn-below-min': 'subscribeEarn',
  'copy-over-max': 'copyTransfer',
  'mode-foreign-target': 'adjustAccountMode',
};
/** Refused for a parameter the request lacks or gets wrong: judged against settings.refusalStatus.validation where stated. */
const VALIDATION: ReadonlySet<Kind> = new Set(['withdraw-no-chain', 'isolated-no-symbol', 'loan-no-amount', 'repay-no-amount', 'fixed-ad-no-price', 'floating-ad-no-premium', 'ad-min-over-max']);
const KINDS = Object.keys(RULE) as Kind[];
const EFFECTS: RequirementId[] = ['U-WITHDRAW-IDEMPOTENT', 'U-WITHDRAW-RECORDED', 'U-RECORDS-IN-RANGE'];
const REQUIREMENTS: RequirementId[] = [...KINDS.map((k) => RULE[k]), ...EFFECTS];
/** What the withdrawal control, repeated and looked up in the records, judges. */
const WITHDRAWAL_EFFECTS: RequirementId[] = ['U-WITHDRAW-IDEMPOTENT', 'U-WITHDRAW-RECORDED', 'U-RECORDS-IN-RANGE'];
const CASES = 100;
/** A case sends at most: two wrong requests, each with its undo, a control, a follow-up and a lookup or two made once. */
const REQUESTS_PER_CASE = 8;

interface Case {
  /** One or two things wrong, of different kinds, each sent alone. */
  kinds: Kind[];
  /** copy-over-max: into the lead account or out of it. */
  copyType: 'in' | 'out';
  /** mode-foreign-target: the peer account's uid (another account) or a made-up one. */
  foreign: 'peer' | 'made-up';
}

type Saw = (id: string, why?: string) => void;

test.describe('conditional rules of the fund operations', () => {
  test(
    'fund rules, property: a fund request with a conditional parameter missing or beyond the account\'s limits is refused beside the same request made right, accepted',
    { tag: reqTags(...REQUIREMENTS, 'U-LOAN-REPAY-ALL') },
    async ({ api, spec, profile, target, writes, identity, property, notApplicable, notTested, verify, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
      const s = settingsOf(profile);
      const live = !target.reference;
      fitTimeout(testInfo, { requests: CASES * depthFactor() * REQUESTS_PER_CASE + 20, waitMs: 0 }, profile, live);
      const stated = (setting: string) => isStatedIn(profile, setting);
      const roles = rolesOf(profile) as KeyRole[];
      const scope = uxScope(s, { writes: profile.writes && writes.allowed, roles });

      const all: RequirementId[] = [...REQUIREMENTS, 'U-LOAN-REPAY-ALL'];
      const out = new Set<RequirementId>();
      const unnamed = (id: RequirementId): string | undefined => {
        const kind = KINDS.find((k) => RULE[k] === id);
        const op = kind ? OWN_WRITE[kind] : id === 'U-LOAN-REPAY-ALL' ? 'repayLoan' : 'withdraw';
        return s.fundWrites.includes(op) ? undefined : `the profile does not name ${op} in settings.fundWrites: no request goes to it`;
      };
      for (const id of all) {
        const why = scope.requirements[id] ?? (writes.allowed ? unnamed(id) : 'the profile does not allow writes: no request goes to a write operation');
        if (why) {
          notApplicable(id, why);
          out.add(id);
        }
      }
      if (out.size === all.length) return;
      // No other check moves the account's funds while this one does (the conservation property compares balances).
      const releaseFunds = await takeLease(identity, FUNDS_LEASE, 'the fund rules');
      try {
        await judgeRules();
      } finally {
        releaseFunds();
      }
      async function judgeRules(): Promise<void> {
        /** Why the control of an operation may not be sent, if it may not. */
        const forbidden = (ops: FundWrite[]): string | undefined => {
          if (!s.funded) return 'the profile says the accounts hold no funds (settings.funded false): the control would be refused for its balance';
          const missing = ops.filter((op) => !s.fundWrites.includes(op));
          return missing.length ? `its control, the same request made right, moves funds or creates accounts (${missing.join(', ')}), and the profile does not name ${missing.length > 1 ? 'them' : 'it'} in settings.fundWrites` : undefined;
        };
        // Where the profile states per-UID rate limits (U-NS-RATE-LIMITS), each key's requests to an operation are paced,
        // and an answer with the throttle status (U-NS-THROTTLE-STATUS) is asked again where no refusal shares it.
        const limited = s.rateLimits === 'per-uid-and-ip';
        const retried = limited && s.refusalStatus.throttle !== s.refusalStatus.validation && s.refusalStatus.throttle !== s.refusalStatus.state;
        const go = async (credential: KeyRole, operationId: string, r: RequestSpec): Promise<Reply> => {
          if (limited) await paced(`${credential} ${operationId}`);
          return retried ? sendPatiently(api, r, s) : api.send(r);
        };
        const send = (credential: KeyRole, operationId: string, json: unknown, label: string): Promise<Reply> =>
          go(credential, operationId, { method: 'POST', path: servedOp(spec, operationId).path, json, authenticate: true, credential, label });
        const read = (credential: KeyRole, operationId: string, query: Record<string, string | number | undefined>, label: string): Promise<Reply> =>
          go(credential, operationId, { method: 'GET', path: withQuery(servedOp(spec, operationId).path, query), authenticate: true, credential, label });
        const has = (role: KeyRole) => roles.includes(role);

        // What some kinds need before a case can be built: where a withdrawal may go, an earn product's minimum.
        const skipped = new Map<Kind, string>();
        let address = s.withdraw.address;
        if (!address && has('peer')) {
          const label = 'where a withdrawal may go: the peer account\'s deposit address';
          const r = await read('peer', 'getDepositAddress', { coin: s.markets.coins.quote, chain: s.withdraw.chain }, label);
          address = accepted(r, label) ? findMember(r.json, 'address') : undefined;
        }
        if (!address) skipped.set('withdraw-no-chain', 'the profile names no address a withdrawal may go to (settings.withdraw.address), nor a peer key whose deposit address would do');
        let product: { productId: string; productSubId: string; min: string } | undefined;
        if (!out.has('U-EARN-SUBSCRIBE-MIN')) {
          const r = await read('trade', 'getEarnProducts', {}, 'an earn product and its minimum');
          product = judged(r, 'the earn products') === 'accepted' ? minimumEarnProduct(r.json, s, flatEarnProducts(profile) === true) : undefined;
          if (!product) skipped.set('earn-below-min', `no earn product with a minSubscribeAmount was listed (${r.status})`);
        }
        for (const [kind, why] of skipped) if (!out.has(RULE[kind])) {
          notTested(RULE[kind], why);
          out.add(RULE[kind]);
        }
        for (const id of WITHDRAWAL_EFFECTS) {
          if (out.has('U-WITHDRAW-CHAIN') && !out.has(id)) {
            notTested(id, 'no withdrawal to repeat and look up: the withdrawals are not tested here (see U-WITHDRAW-CHAIN)');
            out.add(id);
          }
        }
        const kinds = KINDS.filter((k) => !out.has(RULE[k]));
        if (kinds.length === 0) return;
        // Rules reached without a control: the wrong request is sent (an acceptance fails the rule); a refusal is not judged.
        const noControl = new Map<Kind, string>();
        for (const k of kinds) {
          const why = forbidden(CONTROL_WRITES[k]) ?? (k.includes('-ad-') && s.p2p.merchant === false ? 'the profile says the account may not publish advertisements (settings.p2p.merchant false)' : undefined);
          if (why) noControl.set(k, why);
        }
        for (const [k, why] of noControl) if (!out.has(RULE[k])) notTested(RULE[k], `only the wrong request is sent: ${why}`);
        for (const id of WITHDRAWAL_EFFECTS) if (noControl.has('withdraw-no-chain') && !out.has(id)) notTested(id, `no withdrawal is made to repeat and look up: ${noControl.get('withdraw-no-chain')}`);
        const loanRepaidAll = !out.has('U-LOAN-REPAY-ALL');
        const validation = stated('refusalStatus.validation') ? s.refusalStatus.validation : undefined;

        // Controls accepted once stand for the later cases of the same request (`{ accepted }`); a refused one stays
        // refused; one that decided nothing (a throttle, a server error) is asked again by the next case.
        const controls = new Map<string, Control>();
        const remember = (key: string, reply: Reply) => {
          const kind = answerKind(reply);
          if (kind === 'accepted') controls.set(key, { accepted: `${reply.exchange.label ?? key}, accepted earlier in this test (${reply.status})` });
          else if (kind === 'refused') controls.set(key, reply);
        };
        const control = async (key: string, make: () => Promise<Reply>): Promise<Control> => {
          const known = controls.get(key);
          if (known) return known;
          const reply = await make();
          remember(key, reply);
          return reply;
        };
        let peerUid: string | undefined;
        let subUid: string | undefined;
        let openLoan: string | undefined;
        let repaid = false;

        // The loans this test takes are journalled (fund-undo.ts): one left open is repaid when the test ends.
        const loans = new Map<string, Announced>();
        const borrow = async (label: string): Promise<Reply> => {
          const undo = announce(writes, api, servedOp(spec, 'borrow').key, { kind: 'loan', credential: 'trade' }, 'a loan of the fund rules');
          const r = await send('trade', 'borrow', loan(s), label);
          const id = answerKind(r) === 'accepted' ? orderIdOf(r.json) : undefined;
          if (id) {
            undo.made(id);
            loans.set(id, undo);
          }
          if (id && !openLoan) openLoan = id;
          else if (id) await closeLoan(id, 'repay the loan in full (undo)');
          return r;
        };
        const closeLoan = async (orderId: string, label: string) => {
          const r = await send('trade', 'repayLoan', { orderId, method: 'borrowed_coin', repayAll: 'yes' }, label);
          if (answerKind(r) === 'accepted') loans.get(orderId)?.undone();
          return r;
        };

        /**
         * Judges a wrong request: an acceptance fails the rule; a refusal passes only beside an accepted control, and
         * without one (the profile does not let it be sent) is not judged; a throttle or a server error decides nothing.
         */
        function judge(kind: Kind, reply: Reply, what: string, ctl: Control | undefined, saw: Saw): void {
          const rule = RULE[kind];
          try {
            if (ctl === undefined) {
              if (accepted(reply, what)) throw new RequirementViolation(rule, `${what} was accepted (${reply.status}) ${reply.text.slice(0, 160)}`, 'a 4xx refusal', [reply.exchange]);
              return;
            }
            mustBeRefused(rule, reply, what, { control: ctl, status: VALIDATION.has(kind) ? validation : undefined });
            saw(rule);
          } catch (e) {
            if (e instanceof Inconclusive) return saw(rule, e.message);
            throw e;
          }
        }

        async function one(kind: Kind, c: Case, saw: Saw): Promise<void> {
          const controlled = !noControl.has(kind);
          const q = s.markets.coins.quote;
          switch (kind) {
            case 'withdraw-no-chain': {
              const body = withdrawal(s, address!);
              const wrong: Record<string, unknown> = { ...body, clientOid: freshClientOid() };
              delete wrong.chain;
              const r = await send('trade', 'withdraw', wrong, `an on_chain withdrawal of ${s.amounts.withdraw} ${q} without chain`);
              let ctl: Control | undefined;
              if (controlled) {
                ctl = await control('withdraw', async () => {
                  const ok = await send('trade', 'withdraw', body, `the same withdrawal with chain ${s.withdraw.chain} (control)`);
                  if (answerKind(ok) === 'accepted') await repeated(body, ok, saw);
                  return ok;
                });
              }
              return judge(kind, r, 'an on_chain withdrawal without chain', ctl, saw);
            }
            case 'isolated-no-symbol':
            case 'transfer-over-balance': {
              const good = kind === 'isolated-no-symbol' ? isolatedTransfer(s) : pairTransfer(s);
              const wrong = kind === 'isolated-no-symbol' ? { ...good } : pairTransfer(s, BEYOND_ANY_BALANCE);
              delete wrong.symbol;
              const what = kind === 'isolated-no-symbol' ? `a transfer of ${s.amounts.transfer} ${q} into isolated-margin without symbol` : `a transfer of ${BEYOND_ANY_BALANCE} ${q} from ${s.transferPair.fromType}, more than it holds`;
              const r = await send('trade', 'transfer', wrong, what);
              if (answerKind(r) === 'accepted') await send('trade', 'transfer', reverseTransfer(wrong), 'the same transfer back (undo)');
              const ctl = controlled
                ? await control(kind, async () => {
                    const ok = await send('trade', 'transfer', good, `a transfer of ${s.amounts.transfer} ${q} from ${String(good.fromType)} to ${String(good.toType)}${good.symbol ? ` for ${String(good.symbol)}` : ''} (control)`);
                    if (answerKind(ok) === 'accepted') await send('trade', 'transfer', reverseTransfer(good), 'the same transfer back (undo)');
                    return ok;
                  })
                : undefined;
              return judge(kind, r, what, ctl, saw);
            }
            case 'loan-no-amount': {
              const wrong = loan(s);
              delete wrong.loanAmount;
              const r = await send('trade', 'borrow', wrong, `a loan of ${q} against ${s.markets.coins.base} with neither pledgeAmount nor loanAmount`);
              const id = answerKind(r) === 'accepted' ? orderIdOf(r.json) : undefined;
              if (id) await closeLoan(id, 'repay the loan in full (undo)');
              const ctl = controlled ? await control('borrow', () => borrow(`the same loan with loanAmount ${String(loan(s).loanAmount)} (control)`)) : undefined;
              return judge(kind, r, 'a loan with neither pledgeAmount nor loanAmount', ctl, saw);
            }
            case 'repay-no-amount': {
              // A loan to name: the one this test borrowed (the loans' control), or, without controls, a made-up orderId.
              if (controlled && !openLoan) {
                const r = await borrow(`a loan of ${String(loan(s).loanAmount)} ${q} to repay`);
                if (!controls.has('borrow')) remember('borrow', r);
                if (!openLoan) return saw(RULE[kind], `no loan was granted to repay: the complete loan was answered ${describeAnswer(r)}`);
              }
              const orderId = controlled ? openLoan! : `9${Date.now()}`;
              const r = await send('trade', 'repayLoan', { orderId, method: 'borrowed_coin', repayAll: 'no' }, `a repayment of loan ${orderId} with repayAll no and no amount`);
              let ctl: Control | undefined;
              if (controlled && answerKind(r) === 'accepted') {
                // Taken, it may have repaid the loan: repaid in full now, and the next case borrows another.
                await closeLoan(orderId, 'repay the loan in full (undo)');
                openLoan = undefined;
              } else if (controlled) {
                ctl = await control('repay', () => send('trade', 'repayLoan', { orderId, method: 'borrowed_coin', repayAll: 'no', amount: s.amounts.repay }, `the same repayment with amount ${s.amounts.repay} (control)`));
              }
              return judge(kind, r, 'a loan repayment with repayAll no and no amount', ctl, saw);
            }
            case 'fixed-ad-no-price':
            case 'floating-ad-no-premium':
            case 'ad-min-over-max': {
              const priceType = kind === 'floating-ad-no-premium' ? 'floating' : 'fixed';
              const good = advertisement(s, priceType);
              const wrong: Record<string, unknown> = { ...good };
              if (kind === 'fixed-ad-no-price') delete wrong.price;
              if (kind === 'floating-ad-no-premium') delete wrong.premium;
              if (kind === 'ad-min-over-max') Object.assign(wrong, { minAmount: good.maxAmount, maxAmount: good.minAmount });
              const what = kind === 'fixed-ad-no-price' ? 'a fixed-price advertisement without price' : kind === 'floating-ad-no-premium' ? 'a floating-price advertisement without premium' : `an advertisement with minAmount ${String(wrong.minAmount)} above maxAmount ${String(wrong.maxAmount)}`;
              const r = await send('trade', 'createP2pAd', wrong, what);
              const ctl = controlled ? await control(`ad-${priceType}`, () => send('trade', 'createP2pAd', good, `a complete ${priceType}-price buy advertisement (control)`)) : undefined;
              return judge(kind, r, what, ctl, saw);
            }
            case 'earn-below-min': {
              const p = product!;
              const r = await send('trade', 'subscribeEarn', { productSubId: p.productSubId, amount: halfOf(p.min) }, `an earn subscription of ${halfOf(p.min)}, below the minimum ${p.min}`);
              const ctl = controlled
                ? await control('earn', async () => {
                    // Redeemed at once: its acceptance is what the later cases stand on. (Journalled, for an interrupted run.)
                    const undo = announce(writes, api, servedOp(spec, 'subscribeEarn').key, { kind: 'earn-subscription', credential: 'trade', productId: p.productId, productSubId: p.productSubId, amount: p.min, flat: flatEarnProducts(profile) }, `an earn subscription of ${p.min} (the rules' control)`);
                    const ok = await send('trade', 'subscribeEarn', { productSubId: p.productSubId, amount: p.min }, `the same subscription of the minimum ${p.min} (control)`);
                    const id = answerKind(ok) === 'accepted' ? orderIdOf(ok.json) : undefined;
                    if (id) undo.made(id);
                    await undo.undoNow('redeem it (undo)');
                    return ok;
                  })
                : undefined;
              return judge(kind, r, `an earn subscription below the product's minimum ${p.min}`, ctl, saw);
            }
            case 'copy-over-max': {
              const wrong = { coin: q, amount: BEYOND_ANY_BALANCE, type: c.copyType };
              const r = await send('copy', 'copyTransfer', wrong, `a copy-trading transfer ${c.copyType} of ${BEYOND_ANY_BALANCE} ${q}, beyond any maximum`);
              const back = (b: typeof wrong) => send('copy', 'copyTransfer', { ...b, type: b.type === 'in' ? 'out' : 'in' }, 'the same transfer back (undo)');
              if (answerKind(r) === 'accepted') await back(wrong);
              const ctl = controlled
                ? await control(`copy-${c.copyType}`, async () => {
                    const good = { ...wrong, amount: s.amounts.copyTransfer };
                    const ok = await send('copy', 'copyTransfer', good, `the same transfer of ${s.amounts.copyTransfer} ${q} (control)`);
                    if (answerKind(ok) === 'accepted') await back(good);
                    return ok;
                  })
                : undefined;
              return judge(kind, r, 'a copy-trading transfer beyond the maximum transferable', ctl, saw);
            }
            case 'mode-foreign-target': {
              if (c.foreign === 'peer' && has('peer') && peerUid === undefined) {
                const info = await read('peer', 'getAccountInfo', {}, "another account's uid: the peer key's");
                peerUid = findMember((info.json as { data?: unknown } | undefined)?.data, 'uid') ?? '';
              }
              const foreign = c.foreign === 'peer' && peerUid ? peerUid : `9${String(Date.now()).slice(-9)}`;
              const r = await send('trade', 'adjustAccountMode', { mode: 'advanced', targetUid: foreign }, `adjust-account-mode for ${foreign}, ${foreign === peerUid ? "another account's uid" : 'a made-up uid'}`);
              let ctl: Control | undefined;
              if (controlled) {
                ctl = await control('mode', async () => {
                  const sub = await send('trade', 'createSubAccount', { username: freshSubName() }, 'a sub-account of the key\'s account, for the control');
                  subUid = answerKind(sub) === 'accepted' ? findMember((sub.json as { data?: unknown } | undefined)?.data, 'uid') : undefined;
                  if (!subUid) return sub;
                  return send('trade', 'adjustAccountMode', { mode: 'advanced', targetUid: subUid }, `the same switch for the sub-account ${subUid} (control)`);
                });
              }
              return judge(kind, r, 'adjust-account-mode naming an account that is not a sub-account of the key\'s', ctl, saw);
            }
          }
        }

        /**
         * The withdrawal control again, clientOid and all: it must withdraw nothing more (U-WITHDRAW-IDEMPOTENT). Then the
         * records: the withdrawal is found filtered by its orderId and by its clientOid, once (U-WITHDRAW-RECORDED, and
         * a second record under that clientOid is a second withdrawal), and not among the records of a range that
         * ended days ago (U-RECORDS-IN-RANGE). A record is the withdrawal's where any member holds its orderId.
         */
        async function repeated(body: Record<string, unknown>, first: Reply, saw: Saw): Promise<void> {
          const clientOid = String(body.clientOid);
          const firstId = orderIdOf(first.json);
          if (!out.has('U-WITHDRAW-IDEMPOTENT')) {
            const again = await send('trade', 'withdraw', body, `the same withdrawal again, clientOid ${clientOid}`);
            const kind = answerKind(again);
            // Refused beside the first, the same request accepted: no second withdrawal.
            if (kind === 'refused') saw('U-WITHDRAW-IDEMPOTENT');
            else if (kind !== 'accepted') saw('U-WITHDRAW-IDEMPOTENT', `the repeated withdrawal was answered ${describeAnswer(again)}: that decides nothing`);
            else if (firstId !== undefined && orderIdOf(again.json) === firstId) saw('U-WITHDRAW-IDEMPOTENT');
            else throw new RequirementViolation('U-WITHDRAW-IDEMPOTENT', `a second withdrawal with clientOid ${clientOid} was accepted as ${orderIdOf(again.json) ?? '(no orderId)'}, not the first's ${firstId ?? '(no orderId)'}`, "refused, or answered with the first withdrawal's orderId", [first.exchange, again.exchange]);
          }
          if (firstId === undefined) return;
          const names = (row: Record<string, unknown>, value: string) => Object.values(row).some((v) => idText(v) === value);
          const records = async (query: Record<string, string>, label: string) => {
            const r = await read('trade', 'getWithdrawalRecords', query, label);
            return { reply: r, rows: answerKind(r) === 'accepted' ? rowsOf(r.json, 'getWithdrawalRecords', s) : undefined };
          };
          const window = recentWindow();
          const byClient = await records({ ...window, clientOid }, `the withdrawal records of clientOid ${clientOid}`);
          if (byClient.rows && !out.has('U-WITHDRAW-IDEMPOTENT')) {
            const others = byClient.rows.filter((row) => names(row, clientOid) && !names(row, firstId));
            const twice = byClient.rows.filter((row) => names(row, firstId)).length > 1;
            if (others.length || twice) throw new RequirementViolation('U-WITHDRAW-IDEMPOTENT', `the withdrawal records of clientOid ${clientOid} hold ${twice ? `withdrawal ${firstId} twice` : `another withdrawal, ${JSON.stringify(others[0]).slice(0, 160)}`}`, 'one withdrawal of that clientOid', [first.exchange, byClient.reply.exchange]);
          }
          if (!out.has('U-WITHDRAW-RECORDED')) {
            const byOrder = await records({ ...window, orderId: firstId }, `the withdrawal records of orderId ${firstId}`);
            if (!byOrder.rows || !byClient.rows) saw('U-WITHDRAW-RECORDED', `the withdrawal records were answered ${(byOrder.rows ? byClient : byOrder).reply.status}`);
            else {
              const missing = !byOrder.rows.some((row) => names(row, firstId)) ? byOrder : !byClient.rows.some((row) => names(row, firstId)) ? byClient : undefined;
              if (missing) throw new RequirementViolation('U-WITHDRAW-RECORDED', `withdrawal ${firstId}, accepted, is not among ${missing === byOrder ? `the records filtered by its orderId` : `the records filtered by its clientOid ${clientOid}`} of the last week`, 'the withdrawal, found by its orderId and by its clientOid', [first.exchange, missing.reply.exchange]);
              saw('U-WITHDRAW-RECORDED');
            }
          }
          if (!out.has('U-RECORDS-IN-RANGE')) {
            const day = 24 * 3600_000;
            const past = { startTime: String(Date.now() - 7 * day), endTime: String(Date.now() - 3 * day) };
            const old = await records(past, `the withdrawal records of a range that ended three days ago`);
            if (!old.rows) saw('U-RECORDS-IN-RANGE', `the withdrawal records of a past range were answered ${old.reply.status}`);
            else if (old.rows.some((row) => names(row, firstId))) throw new RequirementViolation('U-RECORDS-IN-RANGE', `withdrawal ${firstId}, made now, is among the records of a range that ended three days ago`, 'only withdrawals made within startTime..endTime', [first.exchange, old.reply.exchange]);
            else saw('U-RECORDS-IN-RANGE');
          }
        }

        // Unbiased: every rule as likely as the others (fast-check's bias would favour the first kinds of the list).
        const cases: fc.Arbitrary<Case> = fc.noBias(fc.record({
          kinds: fc.uniqueArray(fc.constantFrom(...kinds), { minLength: 1, maxLength: 2 }),
          copyType: fc.constantFrom('in' as const, 'out' as const),
          foreign: fc.constantFrom('peer' as const, 'made-up' as const),
        }));

        const requirements = REQUIREMENTS.filter((id) => !out.has(id));
        const testing = (c: Case) => c.kinds.map((k) => RULE[k]);
        const check = async (c: Case, skip: ReadonlySet<string>, saw: Saw) => {
          for (const kind of c.kinds) if (!skip.has(RULE[kind])) await one(kind, c, saw);
        };
        // Every rule once, in one case, at any depth: a quarter of the cases below (quick depth) could miss one.
        await property({ id: 'unified-exchange-fund-rules-each', requirements, arbitrary: fc.constant({ kinds, copyType: 'in', foreign: 'peer' } as Case), runs: 1, testing, check });
        // Then the rules one or two at a time, in any order, with either copy-trading direction and either foreign account.
        await property({ id: 'unified-exchange-fund-conditional-rules', requirements, arbitrary: cases, runs: CASES, testing, check });

        // The loan this test borrowed, repaid in full: then it is no longer ongoing.
        if (loanRepaidAll) {
          await verify('U-LOAN-REPAY-ALL', async (seen) => {
            if (!openLoan) throw new NotTested('no loan of this test was open to repay in full (none was borrowed, or a faulty repayment closed it)');
            const r = await closeLoan(openLoan, `repay loan ${openLoan} in full (repayAll yes)`);
            needAccepted(r, `the repayment in full of loan ${openLoan}`, { untested: true, why: 'what a repayment in full leaves cannot be judged' });
            seen('an accepted repayment with repayAll yes');
            repaid = true;
            const after = await read('trade', 'getOngoingLoans', { orderId: openLoan }, `is loan ${openLoan} still ongoing?`);
            needAccepted(after, 'the ongoing loans');
            const still = rowsOf(after.json, 'getOngoingLoans', s).filter((row) => idText(row.orderId) === openLoan);
            if (still.length) throw new RequirementViolation('U-LOAN-REPAY-ALL', `loan ${openLoan}, repaid in full, is still among the ongoing loans: ${JSON.stringify(still[0]).slice(0, 200)}`, 'no longer among the ongoing loans', [r.exchange, after.exchange]);
          }, { needs: ['an accepted repayment with repayAll yes'] });
        }
        if (openLoan && !repaid) await closeLoan(openLoan, `repay loan ${openLoan} in full (undo)`);
      }
    }),
  );
});

/** At most 5 requests a second per key and operation: under the stated per-UID limits, with room for other checks. */
const paced = keyedPacer(5);
