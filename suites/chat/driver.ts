/**
 * Drives chat clients against the target and holds every answer against the model (model.ts). A deviation names
 * the requirements whose breach explains it; the spec files turn deviations into verdicts.
 */
import type { components } from '../../generated/chat.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import type { ChatSettings, Profile } from '../../harness/profile/types.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { identifySpanish, type LanguageFinding } from './language.ts';
import { SlidingWindow, clientIdOf, placeOf, type Expectation, type Headers, type Place, type When } from './model.ts';

export { SHARED_COUNTER } from './scope.ts';

/** The chat settings of the profile (its loader fills in the documented defaults: one instance, and so on). */
export function chatSettings(profile: Profile): ChatSettings {
  const s = profile.interfaces.chat?.settings;
  if (!s) throw new Error('harness: the profile has no chat entry');
  return s;
}

export const CHAT_BODY: components['schemas']['ChatRequest'] = { messages: [{ role: 'user', content: 'Hola' }] };

/** The model's name for the socket address, which the harness cannot see. */
export const SOCKET = 'socket';

/** How a client's own address is written: IPv4, IPv6 (2001:db8::/32, the documentation range) or IPv4-mapped IPv6. */
export type Kind = 'v4' | 'v6' | 'v4-mapped';
export const KINDS: Kind[] = ['v4', 'v6', 'v4-mapped'];

/**
 * An address of `kind` made from a fresh IPv4 address (harness/identity.ts), so that it is as fresh: the IPv6 one
 * carries the IPv4 address's 32 bits in its last two groups, the mapped one is its ::ffff: spelling. Written as
 * RFC 5952 prints them (lower case, the longest run of zero groups shortened), so a target that normalises the
 * address keeps the same string. Whether a mapped address and its IPv4 form are one client is open: no IPv4 address
 * a mapped one was made from is ever sent, so the suite never asserts either way.
 */
export function addressOf(kind: Kind, v4: string): string {
  if (kind === 'v4') return v4;
  if (kind === 'v4-mapped') return `::ffff:${v4}`;
  const [a, b, c, d] = v4.split('.').map(Number);
  return `2001:db8::${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * The header forms a client can name itself with, as proxies write them; each names `address` in the document's
 * reading. Several hops come with and without spaces after the commas.
 */
export type Form = 'xff' | 'xff-spaced' | 'xff-tight' | 'xff+xri' | 'xri';
export const FORMS: Form[] = ['xff', 'xff-spaced', 'xff-tight', 'xff+xri', 'xri'];

/** A client address, and addresses that may only show where the document says they do not count. */
export interface Addresses {
  kind: Kind;
  address: string;
  decoys: [string, string];
}

export function headersOf(form: Form, a: Addresses): Headers {
  switch (form) {
    case 'xff':
      return { 'X-Forwarded-For': a.address };
    case 'xff-spaced':
      return { 'X-Forwarded-For': `${a.address}, ${a.decoys[0]}, ${a.decoys[1]}` };
    case 'xff-tight':
      return { 'X-Forwarded-For': `${a.address},${a.decoys[0]}` };
    case 'xff+xri':
      return { 'X-Forwarded-For': a.address, 'X-Real-IP': a.decoys[0] };
    case 'xri':
      return { 'X-Real-IP': a.address };
  }
}

/**
 * The identification rules a client's requests rely on: X-Real-IP alone, or the first address of X-Forwarded-For
 * when anything but one plain IPv4 address is there (one IPv4 address in X-Forwarded-For is the baseline every
 * counting check uses).
 */
export function rulesOf(form: Form, kind: Kind): string[] {
  if (form === 'xri') return ['E-CLIENT-ID-XREALIP'];
  if (form === 'xff' && kind === 'v4') return [];
  return ['E-CLIENT-ID-XFF-FIRST'];
}
const rulesOfAll = (forms: Iterable<Form>, kind: Kind) => [...new Set([...forms].flatMap((f) => rulesOf(f, kind)))];

export const toleranceNote = (maxRoundTripMs: number) =>
  `E: Retry-After tolerance 1 s + measured round trip (max ${maxRoundTripMs} ms) = ${(1 + maxRoundTripMs / 1000).toFixed(3)} s`;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const whenOf = (r: Reply): When => ({ sentAt: r.sentAt, receivedAt: r.receivedAt });

export interface Deviation {
  /** The requirements the deviation breaks; the first is its cause, the others what the same evidence breaks too. */
  ids: string[];
  message: string;
  expected: string;
  /** The client's exchanges up to the deviation: the evidence. */
  exchanges: Exchange[];
  /** Requirements whose failure in the same run would explain this one. */
  knockOnOf?: string[];
}

interface Sent {
  at: When;
  status: number;
  form: Form;
  kind: Kind;
  exchange: Exchange;
}
const isLimited = (s: { status: number }) => s.status === 429;

/**
 * What an answer is, before anything counts it: the reply of an allowed request (2xx; its body is not shown), the
 * documented limit (429), a refusal of another kind (any other 4xx), or no verdict at all (a 5xx, a redirect). Only the
 * first two are what the limiter's rules are about; a refusal is never counted as "allowed".
 */
export type AnswerKind = 'allowed' | 'limited' | 'refused' | 'no-verdict';
export function answerKind(status: number): AnswerKind {
  if (status === 429) return 'limited';
  if (status >= 200 && status < 300) return 'allowed';
  if (status >= 400 && status < 500) return 'refused';
  return 'no-verdict';
}

/** The target left the model's track: the client is not followed further (what follows would only echo it). */
class Stop extends Error {}

/**
 * The condition each requirement is about, as the driver recognises it in an answer the target got right: a
 * requirement whose condition never arose is not tested, never passed.
 */
const CONDITIONS: Record<string, string> = {
  'E-LIMIT-ALLOWED': 'a request allowed with maxRequests - 1 stamps at most in the window (the last of an allowance)',
  'E-LIMIT-429': 'a 429 where the model demands one (instances x maxRequests stamps certainly in the window)',
  'E-PER-INSTANCE': 'a 429 where the model demands one (instances x maxRequests stamps certainly in the window)',
  'E-WINDOW-SLIDING': 'a client limited earlier, allowed again where the model demands it',
  'E-LIMITED-NOT-RECORDED': 'a client allowed again while its limited retries, had they been recorded, would have filled the window',
  'E-PRUNE-BEFORE-COUNT': 'a client allowed while its stamps older than the window, had they still counted, would have filled it',
  'E-PER-CLIENT': 'a client allowed while another client was limited',
  'E-CLIENT-ID-XFF-FIRST': 'a client named by the first of several X-Forwarded-For addresses, beside an X-Real-IP, or by an IPv6 address, limited where the model demands it',
  'E-CLIENT-ID-XREALIP': 'a client named by X-Real-IP alone, limited where the model demands it',
  'E-429-BODY-ERROR': 'a 429 answer',
  'E-429-BODY-MESSAGE': 'a 429 answer',
  'E-429-MESSAGE-SPANISH': 'a 429 message whose language can be told',
  'E-429-RETRYAFTER-BODY': 'a 429 answer',
  'E-429-RETRY-AFTER-HEADER': 'a 429 answer',
  'E-429-REMAINING-ZERO': 'a 429 answer',
};

/**
 * "message (a fixed Spanish-language sentence ...)": the first 429 message this worker saw, with its exchange, and
 * what the language identifier made of each message. Every later 429 of the run is held to the same text.
 */
let firstMessage: { text: string; exchange: Exchange } | undefined;
const languages = new Map<string, LanguageFinding>();

type Verify = (id: string, check: () => Promise<void> | void) => Promise<boolean>;

export class ChatRun {
  readonly model: SlidingWindow;
  readonly deviations: Deviation[] = [];
  readonly statuses: number[] = [];
  private readonly history = new Map<string, Sent[]>();
  private readonly seen = new Set<string>();
  private maxRttMs = 0;
  private stopped = 0;
  /** Clients no longer followed after an answer that is no verdict (a 5xx, a redirect). */
  private unjudged = 0;
  private undecidedLanguage?: string;

  /** `judged`: the requirements this test gives a verdict on (and has not set aside). */
  constructor(
    private readonly api: Client,
    readonly settings: ChatSettings,
    private readonly fresh: () => string,
    private readonly judged: (id: string) => boolean,
  ) {
    this.model = new SlidingWindow(settings.windowMs, settings.maxRequests, settings.instances);
  }

  /** A new client: its address and its decoys, all of `kind`, none used by any other test of the run. */
  client(kind: Kind = 'v4'): Addresses {
    return { kind, address: addressOf(kind, this.fresh()), decoys: [addressOf(kind, this.fresh()), addressOf(kind, this.fresh())] };
  }

  /** The longest round trip so far, in whole ms (rounded up). */
  get maxRoundTripMs(): number {
    return Math.ceil(this.maxRttMs);
  }

  /** Retry-After is whole seconds rounded either way, from a wait the brackets bound: one second plus the round trip. */
  get toleranceS(): number {
    return 1 + this.maxRoundTripMs / 1000;
  }

  /** The requirements whose condition arose and which the target met. */
  get seenIds(): readonly string[] {
    return [...this.seen];
  }

  /** One counted request: unpaced, and a 429 is what the check is after. */
  async post(headers: Headers): Promise<Reply> {
    const reply = await this.api.send({ method: 'POST', path: '/api/chat', headers, json: CHAT_BODY, unpaced: true, provokesLimit: true });
    this.maxRttMs = Math.max(this.maxRttMs, reply.receivedAt - reply.sentAt);
    this.statuses.push(reply.status);
    return reply;
  }

  /** Sends one request of `who` in `form` and judges the answer; true when it was limited. */
  async send(who: Addresses, form: Form = 'xff'): Promise<boolean> {
    const headers = headersOf(form, who);
    const reply = await this.post(headers);
    const at = whenOf(reply);
    const id = clientIdOf(headers, SOCKET);
    const expected = this.model.expect(id, at);
    const limited = isLimited(reply);
    const past = this.history.get(id) ?? [];
    this.history.set(id, [...past, { at, status: reply.status, form, kind: who.kind, exchange: reply.exchange }]);
    const label = `${id} (${form}, ${JSON.stringify(headers)})`;
    const evidence = () => this.exchangesOf(id);
    const kind = answerKind(reply.status);
    if (kind === 'refused' || kind === 'no-verdict') {
      // Neither the reply of an allowed request nor the documented limit. A refusal is blamed on what the request was
      // testing: the rule that names its client in this header form (an IPv6 X-Forwarded-For, say), else the limit
      // rule its stamps put it under. A 5xx is no refusal: the client is no longer followed, and no rule is blamed.
      if (kind === 'refused') {
        const rules = rulesOf(form, who.kind);
        const ids = rules.length ? rules : [expected.answer === 'limited' ? 'E-LIMIT-429' : 'E-LIMIT-ALLOWED'];
        this.deviate(ids, `${label} got ${reply.status}: neither the reply of an allowed chat request nor the documented 429 limit. ${this.timeline(id)}`, expected.answer === 'limited' ? '429' : expected.answer === 'allowed' ? 'allowed (a 2xx reply)' : 'allowed (a 2xx reply) or 429', evidence());
      } else {
        this.unjudged++;
      }
      this.stopped++;
      throw new Stop();
    }
    if (limited) this.checkLimitedAnswer(reply, expected, label, evidence);
    this.model.record(id, at, limited);

    const { windowMs: w, maxRequests: m, instances: n } = this.settings;
    if (expected.answer === 'allowed' && limited) {
      const blame = await this.blameLimited(past, at, expected, form, who.kind);
      this.deviate(
        blame.ids,
        `${label} got 429 while at most ${expected.possible} of its stamps can be in the ${w} ms window (maxRequests ${m}); ${blame.why}. ${this.timeline(id)}`,
        `allowed (not 429): fewer than ${m} stamps in the window`,
        [...evidence(), ...(blame.probe ? [blame.probe] : [])],
      );
      this.stopped++;
      throw new Stop();
    }
    if (expected.answer === 'limited' && !limited) {
      const blame = await this.blameAllowed(past, at, who, form);
      this.deviate(
        blame.ids,
        `${label} got ${reply.status}, not 429, while ${expected.certain} of its stamps are certainly in the ${w} ms window (limit ${n > 1 ? `${n} instances x ${m}` : m}); ${blame.why}. ${this.timeline(id)}`,
        `429: ${n > 1 ? `${n} x ` : ''}${m} stamps in the window`,
        [...evidence(), ...(blame.probe ? [blame.probe] : [])],
        blame.knockOnOf,
      );
      this.stopped++;
      throw new Stop();
    }
    this.observe(id, past, at, expected, limited, form, who.kind);
    return limited;
  }

  /** Sends until limited. */
  async fill(who: Addresses, form: Form = 'xff'): Promise<void> {
    const { maxRequests: m, instances: n } = this.settings;
    // The model demands a 429 after n x m stamps, and a miss stops the client: the bound is never reached.
    for (let i = 0; i < 2 * n * m + 2; i++) if (await this.send(who, form)) return;
    throw new Error(`harness: ${who.address} was never limited and the model never demanded it`);
  }

  /**
   * Retries while limited, ten times a window per instance: enough limited retries in the window that, had they been
   * recorded, every instance would be full (the condition E-LIMITED-NOT-RECORDED is about).
   */
  async pollUntilAllowed(who: Addresses, form: Form = 'xff'): Promise<void> {
    const n = this.settings.instances;
    // Once every stamp has left the window the model demands "allowed" and a miss stops the client.
    for (let i = 0; i < 40 * n; i++) {
      await sleep(this.settings.windowMs / (10 * n));
      if (!(await this.send(who, form))) return;
    }
    throw new Error(`harness: ${who.address} stayed limited and the model never demanded otherwise`);
  }

  /** Runs client flows side by side; a flow that left the model's track just ends. */
  async together(flows: Array<() => Promise<void>>): Promise<void> {
    const results = await Promise.allSettled(flows.map((f) => f()));
    for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof Stop)) throw r.reason;
  }

  /**
   * One requirement's verdict: the first deviation that names it, else passed when its condition arose (and the
   * target met it), else not tested, with the reason.
   */
  check(id: string): void {
    const d = this.deviations.find((x) => x.ids.includes(id));
    if (d) throw this.violation(d, id === d.ids[0] ? d.ids : [id]);
    if (!this.seen.has(id)) throw new NotTested(this.unseen(id));
  }

  /**
   * For plain tests: the verdicts of `ids`, causes first. Each deviation fails the requirements it names with one
   * piece of evidence, its first named requirement as the cause; then every other id gets `check`.
   */
  async judge(verify: Verify, ids: readonly string[]): Promise<void> {
    const done = new Set<string>();
    for (const d of this.deviations) {
      const mine = d.ids.filter((id) => ids.includes(id) && !done.has(id));
      if (mine.length === 0) continue;
      await verify(mine[0], () => {
        throw this.violation(d, mine);
      });
      mine.forEach((id) => done.add(id));
    }
    for (const id of ids) if (!done.has(id)) await verify(id, () => this.check(id));
  }

  /** For properties: the first deviation, under every requirement it names (they are all still judged). */
  throwFirst(): void {
    const d = this.deviations[0];
    if (d) throw this.violation(d, d.ids);
  }

  /** A deviation as a violation of `ids`: when they leave out its cause (judged already), a knock-on of that one. */
  private violation(d: Deviation, ids: string[]): RequirementViolation {
    const knockOnOf = [...(d.knockOnOf ?? []), ...(ids[0] === d.ids[0] ? [] : [d.ids[0]])];
    return new RequirementViolation(ids, d.message, d.expected, d.exchanges, knockOnOf.length ? knockOnOf : undefined);
  }

  private unseen(id: string): string {
    const what = CONDITIONS[id] ?? 'the condition this requirement is about';
    const why =
      id === 'E-429-MESSAGE-SPANISH' && this.undecidedLanguage
        ? `; the 429 message was not judged: ${this.undecidedLanguage}`
        : this.stopped
          ? `; ${this.stopped} client(s) were no longer followed after a deviation${this.unjudged ? ` or an answer that is no verdict (${this.unjudged} got a 5xx or a redirect)` : ''}`
          : '';
    return `not seen in this check: ${what}${why}`;
  }

  private saw(...ids: string[]): void {
    for (const id of ids) this.seen.add(id);
  }

  /** An answer on the model's track: which requirements' conditions did it reach? */
  private observe(id: string, past: Sent[], at: When, e: Expectation, limited: boolean, form: Form, kind: Kind): void {
    const { windowMs: w, maxRequests: m, instances: n } = this.settings;
    if (limited && e.answer === 'limited') this.saw('E-LIMIT-429', 'E-PER-INSTANCE', ...rulesOf(form, kind));
    if (limited || e.answer !== 'allowed') return;
    if (e.possible === m - 1) this.saw('E-LIMIT-ALLOWED');
    if (past.some(isLimited)) this.saw('E-WINDOW-SLIDING');
    // Had the stamps below still counted, the model would have demanded a 429 here: the breach would have shown.
    const full = (extra: number) => extra > 0 && e.certain + extra >= n * m;
    if (full(past.filter((s) => isLimited(s) && placeOf(s.at, at, w) === 'inside').length)) this.saw('E-LIMITED-NOT-RECORDED');
    if (full(past.filter((s) => !isLimited(s) && placeOf(s.at, at, w) === 'outside').length)) this.saw('E-PRUNE-BEFORE-COUNT');
    if (this.anotherLimited(id, at)) this.saw('E-PER-CLIENT');
  }

  /** Whether some other client's last answer was a 429 and its stamps may still fill its window. */
  private anotherLimited(id: string, at: When): boolean {
    for (const [other, sent] of this.history) {
      if (other !== id && isLimited(sent[sent.length - 1]) && this.model.expect(other, at).answer !== 'allowed') return true;
    }
    return false;
  }

  private deviate(ids: string[], message: string, expected: string, exchanges: Exchange[], knockOnOf?: string[]): void {
    const mine = ids.filter(this.judged);
    if (mine.length > 0) this.deviations.push({ ids: mine, message, expected, exchanges, ...(knockOnOf ? { knockOnOf } : {}) });
  }

  private exchangesOf(id: string): Exchange[] {
    return (this.history.get(id) ?? []).map((s) => s.exchange);
  }

  /** Limited although the model says allowed: which breach would have made the client full? */
  private async blameLimited(past: Sent[], at: When, e: Expectation, form: Form, kind: Kind): Promise<{ ids: string[]; why: string; probe?: Exchange }> {
    const { windowMs: w, maxRequests: m } = this.settings;
    // A fresh client in the same form, right away: if it is limited too, this client is not kept apart.
    const probe = await this.post(headersOf(form, this.client(kind)));
    if (isLimited(probe)) {
      return { ids: [...rulesOf(form, kind), 'E-PER-CLIENT'], why: 'a fresh client sending the same header form right after was limited too: counters are shared', probe: probe.exchange };
    }
    const count = (list: Sent[], where: (p: Place) => boolean) => list.filter((s) => where(placeOf(s.at, at, w))).length;
    const refusedInWindow = count(past.filter(isLimited), (p) => p !== 'outside');
    const expired = count(past.filter((s) => !isLimited(s)), (p) => p === 'outside');
    const ids: string[] = [];
    const why: string[] = [];
    if (e.possible + refusedInWindow >= m) {
      ids.push('E-LIMITED-NOT-RECORDED');
      why.push(`it would be full had its ${refusedInWindow} limited request(s) in the window been recorded`);
    }
    if (expired > 0 && e.possible + expired >= m) {
      // With every stamp aged out, counting before pruning is the cause; with some still in, the window's slide.
      ids.push(...(e.possible === 0 ? ['E-PRUNE-BEFORE-COUNT', 'E-WINDOW-SLIDING'] : ['E-WINDOW-SLIDING', 'E-PRUNE-BEFORE-COUNT']));
      why.push(`it would be full had its ${expired} stamp(s) older than the window still counted`);
    }
    if (ids.length > 0) return { ids, why: why.join('; ') };
    // With none of its own stamps, someone else's counted: the rule that names it, or the counters, mixed clients up.
    // With some, it got fewer than maxRequests through, while a fresh client in its form was kept apart from it.
    if (e.possible === 0) return { ids: [...rulesOf(form, kind), 'E-PER-CLIENT'], why: 'it has no stamp in the window, so another client\'s counted' };
    return { ids: ['E-LIMIT-ALLOWED', 'E-PER-INSTANCE'], why: 'neither stamps older than the window nor limited requests explain it' };
  }

  /** Allowed although the model says limited: which breach would have let it through? */
  private async blameAllowed(past: Sent[], at: When, who: Addresses, form: Form): Promise<{ ids: string[]; why: string; probe?: Exchange; knockOnOf?: string[] }> {
    const w = this.settings.windowMs;
    const stamps = past.filter((s) => !isLimited(s));
    const inWindow = stamps.filter((s) => placeOf(s.at, at, w) !== 'outside');
    const earlier = inWindow.filter((s) => s.form !== form).at(-1)?.form;
    let probe: Exchange | undefined;
    if (earlier) {
      // Its stamps were made in another header form. Right away, once more in that form: still limited there means
      // the target counted the two forms apart; let through there too means the counter itself let go.
      const again = await this.post(headersOf(earlier, who));
      probe = again.exchange;
      if (isLimited(again)) {
        const forms = new Set<Form>([form, ...inWindow.map((s) => s.form)]);
        return { ids: rulesOfAll(forms, who.kind), why: `the document names one client in the header forms ${[...forms].join(', ')}; the target counted them apart (in ${earlier} it was still limited right after)`, probe };
      }
    }
    if (past.some(isLimited)) {
      return { ids: ['E-WINDOW-SLIDING'], why: 'it was let through again before its oldest stamp had left the window', probe };
    }
    // A window that resets at fixed boundaries lets a fresh client through twice around a boundary: that explains it too.
    return { ids: ['E-LIMIT-429', 'E-PER-INSTANCE'], why: 'a client that was never limited got more requests through in one window than the limit', probe, knockOnOf: ['E-WINDOW-SLIDING'] };
  }

  /** The answer of a 429: body, headers, and the wait it announces. */
  private checkLimitedAnswer(reply: Reply, e: Expectation, label: string, evidence: () => Exchange[]): void {
    const { windowMs: w, instances: n } = this.settings;
    const windowS = Math.ceil(w / 1000);
    // Typed as the spec documents a 429 body; every member is checked below before it is trusted.
    const json = reply.json as Partial<components['schemas']['TooManyRequests']> | undefined;
    const body = json && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
    const said = `the 429 to ${label}`;
    this.saw('E-429-BODY-ERROR', 'E-429-RETRYAFTER-BODY', 'E-429-RETRY-AFTER-HEADER', 'E-429-REMAINING-ZERO');
    if (body?.error !== 'Too Many Requests') this.deviate(['E-429-BODY-ERROR'], `${said} has error ${JSON.stringify(body?.error)} (body ${reply.text.slice(0, 200)})`, '"Too Many Requests"', evidence());
    this.checkMessage(body?.message, reply, said, evidence);
    const tol = this.toleranceS;
    // The wait is known when the model followed the client with one instance; otherwise only its bounds are.
    const known = e.answer !== 'allowed' && n === 1;
    const lo = known ? Math.max(0, e.retryAfterMs[0] / 1000 - tol) : 0;
    const hi = known ? e.retryAfterMs[1] / 1000 + tol : windowS + tol;
    const wait = known ? `the oldest stamp in the window leaves it in ${(e.retryAfterMs[0] / 1000).toFixed(3)} to ${(e.retryAfterMs[1] / 1000).toFixed(3)} s` : `the window is ${w} ms`;
    const expectedWait = `${lo.toFixed(3)} to ${hi.toFixed(3)} seconds`;

    const retryAfter = body?.retryAfter;
    if (typeof retryAfter !== 'number' || !Number.isFinite(retryAfter)) {
      this.deviate(['E-429-RETRYAFTER-BODY'], `${said} has retryAfter ${JSON.stringify(retryAfter)}`, `a number of seconds, ${expectedWait}`, evidence());
    } else if (retryAfter < lo || retryAfter > hi) {
      this.deviate(['E-429-RETRYAFTER-BODY'], `${said} has retryAfter ${retryAfter}; ${wait} (tolerance ${tol.toFixed(3)} s)`, expectedWait, evidence());
    }
    const remaining = reply.headers['x-ratelimit-remaining'];
    if (remaining?.trim() !== '0') this.deviate(['E-429-REMAINING-ZERO'], `${said} has X-RateLimit-Remaining ${JSON.stringify(remaining)}`, '0', evidence());

    const header = reply.headers['retry-after']?.trim();
    if (header === undefined || !/^\d+$/.test(header)) {
      this.deviate(['E-429-RETRY-AFTER-HEADER'], `${said} has Retry-After ${JSON.stringify(header)}`, 'a whole number of seconds', evidence());
    } else if (Number(header) < lo || Number(header) > hi) {
      this.deviate(['E-429-RETRY-AFTER-HEADER'], `${said} has Retry-After ${header}; ${wait} (tolerance ${tol.toFixed(3)} s)`, expectedWait, evidence());
    }
  }

  /** "message (a fixed Spanish-language sentence ...)": a non-empty string, the same on every 429, in Spanish. */
  private checkMessage(message: unknown, reply: Reply, said: string, evidence: () => Exchange[]): void {
    if (typeof message !== 'string' || message.trim() === '') {
      this.deviate(['E-429-BODY-MESSAGE'], `${said} has message ${JSON.stringify(message)}`, 'a non-empty string', evidence());
      return;
    }
    if (firstMessage && message !== firstMessage.text) {
      this.deviate(
        ['E-429-BODY-MESSAGE'],
        `${said} has message ${JSON.stringify(message)}, an earlier 429 of the run had ${JSON.stringify(firstMessage.text)}`,
        'the same fixed sentence on every 429',
        [firstMessage.exchange, ...evidence()],
      );
    } else {
      firstMessage ??= { text: message, exchange: reply.exchange };
      this.saw('E-429-BODY-MESSAGE');
    }
    let finding = languages.get(message);
    if (!finding) languages.set(message, (finding = identifySpanish(message)));
    if (finding.verdict === 'spanish') this.saw('E-429-MESSAGE-SPANISH');
    else if (finding.verdict === 'undecided') this.undecidedLanguage = `${JSON.stringify(message)}: ${finding.detail}`;
    else this.deviate(['E-429-MESSAGE-SPANISH'], `${said} has message ${JSON.stringify(message)}: ${finding.detail}`, 'a sentence in Spanish', evidence());
  }

  /** A client's requests as evidence: ms since its first request left, sent..answered, status. */
  private timeline(id: string): string {
    const sent = this.history.get(id) ?? [];
    const t0 = sent[0]?.at.sentAt ?? 0;
    const r = (x: number) => Math.round(x - t0);
    return `Its requests (ms since its first: sent..answered status form): ${sent.map((s) => `${r(s.at.sentAt)}..${r(s.at.receivedAt)} ${s.status} ${s.form}`).join(', ')}`;
  }
}
