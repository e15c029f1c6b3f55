/**
 * Drives chat clients against the target and holds every answer against the model (model.ts). A deviation names
 * the requirements whose breach explains it; the spec files turn deviations into verdicts.
 */
import { answerKind, isThrottled, type AnswerKind } from '../../harness/answers.ts';
import type { components } from '../../generated/chat.ts';
import { TargetError, type Client, type Reply } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import type { ChatSettings, Profile } from '../../harness/profile/types.ts';
import { waiting } from '../../harness/progress.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { identifySpanish, type LanguageFinding } from './language.ts';
import { SlidingWindow, clientIdOf, placeOf, type Expectation, type Headers, type Place, type When } from './model.ts';
import { chatRequest, slowReplies } from './request.ts';
import { sightAllowed, sightLimited, type RecordReading } from './sightings.ts';
import { runScoped } from '../../harness/run-scoped.ts';

export { SHARED_COUNTER } from './scope.ts';
export { replyWaitMs } from './request.ts';

/** The chat settings of the profile (its loader fills in the documented defaults: one instance, and so on). */
export function chatSettings(profile: Profile): ChatSettings {
  const s = profile.interfaces.chat?.settings;
  if (!s) throw new Error('harness: the profile has no chat entry');
  return s;
}

/** The model's name for the socket address, which the harness cannot see. */
export const SOCKET = 'socket';

/** How a client's own address is written: IPv4, IPv6 (2001:db8::/32, the documentation range) or IPv4-mapped IPv6. */
export type Kind = 'v4' | 'v6' | 'v4-mapped';
export const KINDS: Kind[] = ['v4', 'v6', 'v4-mapped'];

/**
 * An address of `kind` made from a fresh IPv4 address (harness/identity.ts), so that it is as fresh: the IPv6 one
 * (2001:db8::/32) carries the IPv4 address's 32 bits in its third and fourth groups, the fast-changing bytes first
 * (c.d, then b.a), so that two clients differ within their first 56 bits and a limiter that keys IPv6 clients by
 * network (a /56 or a /64, E-NS-IPV6-KEY) still counts them apart; the mapped one is its ::ffff: spelling. Written
 * as RFC 5952 prints them (lower case, the longest run of zero groups shortened), so a target that normalises the
 * address keeps the same string. Whether a mapped address and its IPv4 form are one client is open: no IPv4 address
 * a mapped one was made from is ever sent, so the suite never asserts either way.
 */
export function addressOf(kind: Kind, v4: string): string {
  if (kind === 'v4') return v4;
  if (kind === 'v4-mapped') return `::ffff:${v4}`;
  const [a, b, c, d] = v4.split('.').map(Number);
  return `2001:db8:${((c << 8) | d).toString(16)}:${((b << 8) | a).toString(16)}::1`;
}

/**
 * An IPv6 address in the /56 of an address of addressOf, but in another /64 (its eighth byte all ones, which the
 * harness's addresses, all from 198.18.0.0/15, never have there): a neighbour no client of the run is given.
 */
export function networkNeighbour(address: string): string {
  const groups = address.split(':');
  return `2001:db8:${groups[2]}:${((parseInt(groups[3], 16) & 0xff00) | 0xff).toString(16)}::2`;
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
  `E: Retry-After tolerance 1 s + longest round trip of a 429 (${maxRoundTripMs} ms) = ${(1 + maxRoundTripMs / 1000).toFixed(3)} s`;

/** Sits out time by design: a long wait (a window to move on) is said to the console's heartbeat. */
export const sleep = (ms: number) => waiting(ms, 'the rate-limit window to move on');
/**
 * When the server handled a request: after it left, and before the head of its answer was in (the limiter had
 * stamped it or not by then; a streamed reply's head comes before the model's words).
 */
export const whenOf = (r: Reply): When => ({ sentAt: r.sentAt, receivedAt: r.headersAt });

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

/** A client whose answers are being judged: who, in which header form, the model's name for it and how it is shown. */
interface JudgedClient {
  who: Addresses;
  form: Form;
  id: string;
  label: string;
}

interface Sent {
  at: When;
  status: number;
  /** Answered 429 (by the limiter, or by something in front of it). */
  limited: boolean;
  form: Form;
  kind: Kind;
  exchange: Exchange;
}
const isLimited = (s: { limited: boolean }) => s.limited;

/**
 * What an answer is, before anything counts it: the reply of an allowed request (2xx; its body is not shown), a 429,
 * a refusal of another kind (any other 4xx), or no verdict at all (a 5xx, a redirect, a page that is not the API). Only
 * the first two are what the limiter's rules are about; a refusal is never counted as "allowed". Read through the
 * shared classification (harness/answers.ts): seen from the limiter, a 429 is its subject, not only the environment's
 * trouble (whose it is, ChatRun.limiters tells).
 */
export type LimiterView = 'allowed' | 'limited' | 'refused' | 'no-verdict';
const LIMITER_VIEW: Partial<Record<AnswerKind, LimiterView>> = { accepted: 'allowed', throttled: 'limited', refused: 'refused' };
export function limiterView(reply: Pick<Reply, 'status' | 'headers' | 'kind'>): LimiterView {
  return LIMITER_VIEW[answerKind(reply)] ?? 'no-verdict';
}

/**
 * What marks a 429 as coming from one source: its media type, its body's error and message, whether it carries
 * X-RateLimit-Remaining (never the wait, which changes from one 429 to the next).
 */
function markOf(reply: Reply): string {
  const body = reply.json && typeof reply.json === 'object' && !Array.isArray(reply.json) ? (reply.json as Record<string, unknown>) : {};
  const type = (reply.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return JSON.stringify([type, body.error ?? null, body.message ?? null, reply.headers['x-ratelimit-remaining'] !== undefined]);
}

/** The 429 the document describes: error "Too Many Requests" in its body, and X-RateLimit-Remaining. */
function documentedMark(reply: Reply): boolean {
  const body = reply.json as { error?: unknown } | undefined;
  return body?.error === 'Too Many Requests' && reply.headers['x-ratelimit-remaining'] !== undefined;
}

/**
 * What this run's earlier 429s showed: the mark of the first 429 a client was seen to earn (the model demanded it: the
 * client had the limit's stamps in its window), the limiter's own answer, which a 429 no client could have earned is
 * held against; and the first 429's message (with its exchange), which every later one must repeat.
 */
const seen = runScoped((): { limiterMark?: string; firstMessage?: { text: string; exchange: Exchange } } => ({}));

/**
 * A 429 that the run cannot tell apart from its environment's (a gateway throttling the harness): raised while a
 * client is judged, it ends the client undecided.
 */
class EnvironmentLimit extends Error {}

/**
 * The target left the model's track: the client is not followed further (what follows would only echo it).
 * `knockOnOf`: the requirements whose breach would explain the deviation without this evidence proving it.
 */
class Stop extends Error {
  constructor(readonly knockOnOf: readonly string[] = []) {
    super('the client left the model');
  }
}

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

/** What the language identifier made of each 429 message (the same text gets the same finding in any run). */
const languages = new Map<string, LanguageFinding>();

type Verify = (id: string, check: () => Promise<void> | void) => Promise<boolean>;

export class ChatRun {
  readonly model: SlidingWindow;
  readonly deviations: Deviation[] = [];
  readonly statuses: number[] = [];
  private readonly history = new Map<string, Sent[]>();
  private readonly seen = new Set<string>();
  /** The longest round trip of a 429 (the answers whose wait is judged), and of an allowed reply. */
  private maxRttMs = 0;
  private replyMs = 0;
  private stopped = 0;
  /** Clients no longer followed after an answer that is no verdict (a 5xx, a redirect). */
  private unjudged = 0;
  /** Clients no longer followed because even a fresh client's documented request was refused (the answers). */
  private readonly refusedOutright: string[] = [];
  /** Clients no longer followed after a 429 none of them could have earned and that is not the limiter's (the answers). */
  private readonly environmentLimits: string[] = [];
  private undecidedLanguage?: string;
  /**
   * Why some of the run's requests decided nothing (the environment's 429, a 5xx, a redirect, no answer): a requirement
   * not seen then is inconclusive, not untested. `outage`: the client gave up on the target.
   */
  private troubled?: string;
  private outageError?: TargetError;

  /**
   * `judged`: the requirements this test gives a verdict on (and has not set aside). `sighted`: where the readings of
   * open points the answers show go (the test's `reading` fixture, narrowed to its requirements).
   */
  constructor(
    private readonly api: Client,
    readonly settings: ChatSettings,
    private readonly fresh: () => string,
    private readonly judged: (id: string) => boolean,
    private readonly sighted: RecordReading = () => {},
  ) {
    this.model = new SlidingWindow(settings.windowMs, settings.maxRequests, settings.instances);
  }

  /** A new client: its address and its decoys, all of `kind`, none used by any other test of the run. */
  client(kind: Kind = 'v4'): Addresses {
    return { kind, address: addressOf(kind, this.fresh()), decoys: [addressOf(kind, this.fresh()), addressOf(kind, this.fresh())] };
  }

  /** The longest round trip of a 429 so far, in whole ms (rounded up). */
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

  /** Whether replies take long enough that a client's allowance is sent at once (see slowReplies). */
  get slow(): boolean {
    return slowReplies(this.settings, Math.max(this.settings.replyMs ?? 0, this.replyMs));
  }

  /** One counted request: unpaced, and a 429 is what the check is after. */
  async post(headers: Headers): Promise<Reply> {
    const reply = await this.api.send({ method: 'POST', path: '/api/chat', headers, json: chatRequest(this.settings), unpaced: true, provokesLimit: true });
    const ms = reply.receivedAt - reply.sentAt;
    if (isThrottled(reply)) this.maxRttMs = Math.max(this.maxRttMs, ms);
    else if (limiterView(reply) === 'allowed') this.replyMs = Math.max(this.replyMs, ms);
    this.statuses.push(reply.status);
    return reply;
  }

  /**
   * `count` requests with the same headers, sent at once (one is just one), their replies in the order they left.
   * Every one is answered before a request that got no answer is reported.
   */
  async postAtOnce(headers: Headers, count: number): Promise<Reply[]> {
    if (count <= 1) return [await this.post(headers)];
    const settled = await Promise.allSettled(Array.from({ length: count }, () => this.post(headers)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<Reply>).value).sort((a, b) => a.sentAt - b.sentAt);
  }

  /**
   * How many more requests of `id` the limit may still let into the window: instances x maxRequests less the stamps
   * certainly in it (at least one). Those that find the window full after all are limited, which is what a fill is
   * after; those allowed cannot put more than the limit into it.
   */
  roomOf(id: string): number {
    const now = performance.now();
    const { maxRequests: m, instances: n } = this.settings;
    return Math.max(1, n * m - this.model.expect(id, { sentAt: now, receivedAt: now }).certain);
  }

  /** Sends one request of `who` in `form` and judges the answer; true when it was limited. */
  async send(who: Addresses, form: Form = 'xff'): Promise<boolean> {
    return this.sendAtOnce(who, form, 1);
  }

  /**
   * Sends `count` requests of `who` in `form` at once and judges the answers together: each may have been stamped
   * before the others, so what the model demands of one counts the others as stamps that may be in its window, and
   * together they may not put more than the limit in one window. True when one was limited.
   */
  async sendAtOnce(who: Addresses, form: Form, count: number): Promise<boolean> {
    const headers = headersOf(form, who);
    const replies = await this.postAtOnce(headers, count);
    const id = clientIdOf(headers, SOCKET);
    const past = this.history.get(id) ?? [];
    const sent = replies.map((reply) => ({ reply, at: whenOf(reply), limited: isThrottled(reply) }));
    this.history.set(id, [...past, ...sent.map(({ reply, at, limited }) => ({ at, status: reply.status, limited, form, kind: who.kind, exchange: reply.exchange }))]);
    const label = `${id} (${form}, ${JSON.stringify(headers)})`;
    // What the model demands of each, before any of them is recorded: the others are stamps it may or may not follow.
    const judged = sent.map((s) => ({ ...s, expected: this.model.expect(id, s.at, sent.filter((o) => o !== s && !o.limited).map((o) => o.at)) }));

    const client: JudgedClient = { who, form, id, label };
    for (const { reply, expected } of judged) {
      const kind = limiterView(reply);
      if (kind === 'refused') await this.refused(client, reply, expected);
      if (kind === 'no-verdict') this.noVerdict(reply);
    }
    // A 429 where the model demands "allowed" (the client had fewer than maxRequests stamps in its window, its first
    // request in an empty one say) is one the client could not have earned: the environment's (a gateway throttling the
    // run) unless it is told apart as the limiter's own. Undecided, the client is no longer followed.
    for (const { reply, expected, limited } of judged) {
      if (limited && expected.answer === 'allowed' && !this.limiters(reply)) this.environmentLimit(reply, `${label}'s request, with at most ${expected.possible} of its stamps in the window`);
    }
    for (const { reply, expected, limited } of judged) {
      if (!limited) sightAllowed(reply, this.sighted);
      // The body and headers of a 429 are judged where the limiter gave it: one the model demands, or one told apart as
      // the limiter's (a 429 the environment gave where either answer was allowed is nobody's to judge).
      else if (expected.answer === 'limited' || this.limiters(reply)) {
        if (expected.answer === 'limited') seen().limiterMark ??= markOf(reply);
        this.checkLimitedAnswer(reply, expected, label, id);
        sightLimited(reply, expected.answer !== 'allowed' && this.settings.instances === 1 ? expected.retryAfterMs : undefined, this.sighted);
      }
    }
    for (const { at, limited } of judged) this.model.record(id, at, limited);

    const { windowMs: w, maxRequests: m, instances: n } = this.settings;
    for (const { at, expected, limited, reply } of judged) {
      if (expected.answer === 'allowed' && limited) {
        const blame = await this.undecidedOn(() => this.blameLimited(past, at, expected, form, who.kind), label);
        this.deviate(
          blame.ids,
          `${label} got 429 while at most ${expected.possible} of its stamps can be in the ${w} ms window (maxRequests ${m}); ${blame.why}. ${this.timeline(id)}`,
          `allowed (not 429): fewer than ${m} stamps in the window`,
          this.evidence(id, reply, blame.probe),
        );
        this.stopped++;
        throw new Stop();
      }
    }
    const over = this.overLimit(id, judged);
    if (over) {
      const blame = await this.undecidedOn(() => this.blameAllowed(past, over.at, who, form), label);
      this.deviate(
        blame.ids,
        `${label} got ${over.what}, not 429, while ${over.certain} of its stamps are certainly in the ${w} ms window (limit ${n > 1 ? `${n} instances x ${m}` : m}); ${blame.why}. ${this.timeline(id)}`,
        `429: ${n > 1 ? `${n} x ` : ''}${m} stamps in the window`,
        this.evidence(id, over.reply, blame.probe),
        blame.knockOnOf,
      );
      this.stopped++;
      throw new Stop(blame.knockOnOf);
    }
    for (const { at, expected, limited } of judged) this.observe(id, past, at, expected, limited, form, who.kind);
    return judged.some((s) => s.limited);
  }

  /**
   * More requests allowed than the limit lets into one window: one allowed where the model demanded a 429, or, of
   * requests sent at once, more allowed than the stamps already certainly in the window leave room for.
   */
  private overLimit(id: string, judged: Array<{ at: When; expected: Expectation; limited: boolean; reply: Reply }>): { at: When; certain: number; what: string; reply: Reply } | undefined {
    const single = judged.find((s) => s.expected.answer === 'limited' && !s.limited);
    if (single) return { at: single.at, certain: single.expected.certain, what: String(single.reply.status), reply: single.reply };
    const allowed = judged.filter((s) => !s.limited);
    if (allowed.length < 2 || this.model.excess(id, allowed.map((s) => s.at)) === 0) return undefined;
    const { instances: n, maxRequests: m } = this.settings;
    const last = allowed[allowed.length - 1];
    return { at: last.at, certain: n * m + this.model.excess(id, allowed.map((s) => s.at)) - 1, what: `${allowed.length} allowed replies to ${judged.length} requests sent at once`, reply: last.reply };
  }

  /**
   * Whether a 429 is the limiter's own, as far as the run can tell: it carries the mark of a 429 some client of this
   * worker earned (the control: the limiter's answer where the document demands it), or, before any was seen, the 429
   * the document describes (error "Too Many Requests", X-RateLimit-Remaining). A gateway's 429 in front of the target
   * carries its own; one that copies the limiter's exactly cannot be told apart by any client.
   */
  limiters(reply: Reply): boolean {
    return isThrottled(reply) && (seen().limiterMark === undefined ? documentedMark(reply) : markOf(reply) === seen().limiterMark || documentedMark(reply));
  }

  /** A 429 not told apart from the environment's where the model demands "allowed": the client is not followed further. */
  private environmentLimit(reply: Reply, what: string): never {
    const why = `${what}, was answered 429 ${reply.text.slice(0, 80)}, unlike the limiter's own 429: a 429 no client could have earned, taken for the environment's (a gateway throttling the run)`;
    // Nor is it held to the spec's 429 by the response checks (harness/response-checks.ts).
    reply.exchange.environment = why;
    this.environmentLimits.push(why);
    this.troubled ??= why;
    this.stopped++;
    throw new Stop();
  }

  /** Runs a blame whose witnesses may meet the environment's 429: then the client ends undecided instead. */
  private async undecidedOn<T>(blame: () => Promise<T>, label: string): Promise<T> {
    try {
      return await blame();
    } catch (e) {
      if (!(e instanceof EnvironmentLimit)) throw e;
      this.environmentLimits.push(`${label}: ${e.message}`);
      this.troubled ??= e.message;
      this.stopped++;
      throw new Stop();
    }
  }

  /**
   * Whether a witness (a fresh client asked to tell a cause apart) was limited by the limiter (true) or allowed (false).
   * Anything else decides nothing, and is thrown: a 429 unlike the limiter's own (the environment's), a refusal, a 5xx.
   */
  private limitedWitness(reply: Reply): boolean {
    const view = limiterView(reply);
    if (view === 'allowed') return false;
    if (view === 'limited' && this.limiters(reply)) return true;
    const what = view === 'limited' ? "a 429 unlike the limiter's own, the environment's" : 'no answer of the limiter';
    if (view === 'limited') reply.exchange.environment = `a fresh client's 429 ${what}`;
    throw new EnvironmentLimit(`a fresh client asked to tell the cause apart was answered ${reply.status} ${reply.text.slice(0, 80)}: ${what}, which decides nothing`);
  }

  /**
   * A client's requests as evidence, ending with the answer that broke the rule (the report shows the last exchange as
   * "the answer", with its curl): what led up to it first, then any witness or control, then that answer.
   */
  private evidence(id: string, broke: Reply, ...others: Array<Exchange | undefined>): Exchange[] {
    const led = this.exchangesOf(id).filter((ex) => ex !== broke.exchange);
    return [...led, ...others.filter((ex): ex is Exchange => ex !== undefined), broke.exchange];
  }

  /**
   * A refusal (a 4xx other than 429) of a request the document says is allowed or limited. It counts against what the
   * request was testing only beside a control, the same request with that one thing made right, which the target
   * accepts: a fresh client in plain X-Forwarded-For for a header form or address kind under test, a fresh client in
   * the same form for the limit. Refused too, the documented request itself is what the target refuses (it asks for
   * more than the document shows, E-NS-AUTH, E-NS-EXTRA-INPUT): no rule is blamed. Either way the client stops here.
   */
  private async refused({ who, form, id, label }: JudgedClient, reply: Reply, expected: Expectation): Promise<never> {
    const rules = rulesOf(form, who.kind);
    const control = await this.post(rules.length ? headersOf('xff', this.client('v4')) : headersOf(form, this.client(who.kind)));
    // Only an allowed control tells the refusal apart; a throttled, failed or refused one leaves it undecided.
    const controlled = limiterView(control) === 'allowed';
    this.stopped++;
    if (!controlled) {
      this.refusedOutright.push(`${reply.status} (control ${control.status})`);
      throw new Stop();
    }
    const ids = rules.length ? rules : [expected.answer === 'limited' ? 'E-LIMIT-429' : 'E-LIMIT-ALLOWED'];
    const what = rules.length ? 'the same request from a fresh client in plain X-Forwarded-For with an IPv4 address' : 'the same request from a fresh client';
    this.deviate(
      ids,
      `${label} got ${reply.status}: neither the reply of an allowed chat request nor the documented 429 limit, while ${what} was allowed (${control.status}). ${this.timeline(id)}`,
      expected.answer === 'limited' ? '429' : expected.answer === 'allowed' ? 'allowed (a 2xx reply)' : 'allowed (a 2xx reply) or 429',
      this.evidence(id, reply, control.exchange),
    );
    throw new Stop();
  }

  /**
   * Neither the reply of an allowed request nor a 429, nor a refusal: a 5xx, a redirect or a page that is not the API
   * decides nothing about the limiter's rules (a 5xx is E-GEN-NO-5XX's failure wherever it shows, even where the 429
   * was due), and the client is no longer followed.
   */
  private noVerdict(reply: Reply): never {
    this.stopped++;
    this.unjudged++;
    this.troubled ??= `a chat request was answered ${reply.status}, ${answerKind(reply) === 'server-error' ? 'a server error' : 'not the API answering'}: it decides nothing about the limiter's rules`;
    throw new Stop();
  }

  /**
   * Sends until limited: one request after another, or, where replies are slow, one more at once than the limit may
   * still let through, then one request more (the 429 the model then demands). A client limited that way has a 429
   * behind it before it waits for its replies, as one limited request after another has.
   */
  async fill(who: Addresses, form: Form = 'xff'): Promise<void> {
    const { maxRequests: m, instances: n } = this.settings;
    const id = clientIdOf(headersOf(form, who), SOCKET);
    // The model demands a 429 after n x m stamps, and a miss stops the client: the bound is never reached.
    for (let i = 0; i < 2 * n * m + 2; i++) {
      if (!this.slow) {
        if (await this.send(who, form)) return;
      } else if (await this.sendAtOnce(who, form, this.roomOf(id) + 1)) {
        await this.send(who, form);
        return;
      }
    }
    throw new Error(`harness: ${who.address} was never limited and the model never demanded it`);
  }

  /**
   * E-NS-IPV6-KEY: a neighbour of a limited IPv6 client, in its /56 but not its /64, is limited too where the target
   * keys IPv6 clients by network, allowed where it keys them by address. Either is correct: only the report says which.
   */
  async sightNetworkKey(who: Addresses): Promise<void> {
    const reply = await this.post({ 'X-Forwarded-For': networkNeighbour(who.address) });
    if (this.limiters(reply)) this.sighted('E-NS-IPV6-KEY', 'subnet-56');
    else if (limiterView(reply) === 'allowed') this.sighted('E-NS-IPV6-KEY', 'full-address');
  }

  /** A burst of `size` requests: one after another, or, where replies are slow, at once. */
  async burst(who: Addresses, form: Form, size: number): Promise<void> {
    if (this.slow) await this.sendAtOnce(who, form, size);
    else for (let i = 0; i < size; i++) await this.send(who, form);
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

  /**
   * A client's flow, and where a fresh client of it leaves the model's track on evidence that a breach of `id` would
   * explain but does not prove, the flow again with another fresh client, up to `times` more. A fixed window, say,
   * lets a client whose fill straddles one of its boundaries through beyond the limit (E-LIMIT-429's evidence), which
   * says nothing of whether the window slides; a client that fills up clear of a boundary shows that it does not. The
   * odds of a straddle grow as replies slow down: on a loaded machine the fixed-window fault survived the self-test
   * twice with only E-LIMIT-429's evidence. A target that follows the model never gets a second client.
   */
  async untilProvenOrNot(id: string, times: number, flow: (who: Addresses) => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await flow(this.client());
      } catch (e) {
        if (!(e instanceof Stop) || !e.knockOnOf.includes(id) || attempt >= times) throw e;
      }
    }
  }

  /**
   * Runs client flows side by side; a flow that left the model's track just ends, and so does one whose request got no
   * answer of the chat endpoint (no answer at all, an outage, an answer that decides nothing): that trouble is kept,
   * and leaves what the run did not see inconclusive (check). A harness error still ends the test.
   */
  async together(flows: Array<() => Promise<void>>): Promise<void> {
    const results = await Promise.allSettled(flows.map((f) => f()));
    for (const r of results) {
      if (r.status === 'fulfilled' || r.reason instanceof Stop) continue;
      if (r.reason instanceof TargetError) {
        if (r.reason.kind === 'given-up') this.outageError ??= r.reason;
        this.troubled ??= `a chat request got no answer: ${r.reason.message}`;
      } else if (r.reason instanceof Inconclusive) this.troubled ??= r.reason.message;
      else throw r.reason;
    }
  }

  /** Why some requests of the run decided nothing, if any did (see together). */
  get trouble(): string | undefined {
    return this.troubled;
  }

  /** The client gave up on the target during the run (an outage): a property stops on it. */
  get outage(): TargetError | undefined {
    return this.outageError;
  }

  /**
   * One requirement's verdict: the first deviation that names it, else passed when its condition arose (and the
   * target met it), else not tested, with the reason.
   */
  check(id: string): void {
    const d = this.deviations.find((x) => x.ids.includes(id));
    if (d) throw this.violation(d, id === d.ids[0] ? d.ids : [id]);
    if (this.seen.has(id)) return;
    // A message the language identifier cannot tell apart from Spanish is not evidence either way: undecided.
    if (id === 'E-429-MESSAGE-SPANISH' && this.undecidedLanguage) throw new Inconclusive(`the language of the 429 message could not be told: ${this.undecidedLanguage}`);
    // Not seen where some answers decided nothing: what they hid may be the very condition.
    if (this.troubled) throw new Inconclusive(`${this.unseen(id)}; and ${this.troubled}`);
    throw new NotTested(this.unseen(id));
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
    const deviated = this.stopped - this.unjudged - this.refusedOutright.length - this.environmentLimits.length;
    const reasons = [
      ...(deviated ? [`${deviated} after a deviation`] : []),
      ...(this.unjudged ? [`${this.unjudged} after an answer that is no verdict (a 5xx or a redirect)`] : []),
      ...(this.environmentLimits.length ? [`${this.environmentLimits.length} after a 429 none could have earned, unlike the limiter's own (the environment's)`] : []),
      ...(this.refusedOutright.length
        ? [`${this.refusedOutright.length} after a refusal that a fresh client's documented request got too (${[...new Set(this.refusedOutright)].join(', ')}): the deployment asks for more than the document shows (E-NS-AUTH, E-NS-EXTRA-INPUT); state it in the profile (settings.extras, settings.requestMembers)`]
        : []),
    ];
    return `not seen in this check: ${what}${reasons.length ? `; clients no longer followed: ${reasons.join('; ')}` : ''}`;
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
    if (this.limitedWitness(probe)) {
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
    // With none of its own stamps, someone else's counted: the rule that names it, or the counters, mixed clients up.
    const shared = { ids: [...rulesOf(form, kind), 'E-PER-CLIENT'], why: 'it has no stamp in the window, so another client\'s counted' };
    if (ids.length === 0 && e.possible === 0) return shared;
    // The same would show if the limit simply came early for every client, or if other clients' stamps counted.
    const early = await this.earlyOrShared(form, kind, e.possible);
    if (early) return early;
    if (ids.length > 0) return { ids, why: why.join('; ') };
    return { ...shared, why: `a fresh client got ${e.possible + 1} request(s) through, so the limit is not early: neither its own stamps, older than the window or limited, nor the limit explain it, another client's counted` };
  }

  /**
   * A client limited with `possible` stamps at most: does the limit come early for every client? A fresh client sends
   * one more than that, each of which must be allowed. Limited after fewer, it shows an early limit, unless yet another
   * fresh client is limited at once: then the counters are shared. Undefined when the fresh client got them all through.
   */
  private async earlyOrShared(form: Form, kind: Kind, possible: number): Promise<{ ids: string[]; why: string; probe: Exchange } | undefined> {
    const early = await this.limitedEarly(headersOf(form, this.client(kind)), possible);
    if (!early) return undefined;
    const other = await this.post(headersOf(form, this.client(kind)));
    if (this.limitedWitness(other)) return { ids: [...rulesOf(form, kind), 'E-PER-CLIENT'], why: `a fresh client was limited after ${early.allowed} allowed request(s), and another one at once: counters are shared`, probe: other.exchange };
    return { ids: ['E-LIMIT-ALLOWED', 'E-PER-INSTANCE'], why: `a fresh client was limited too, after ${early.allowed} allowed request(s): the limit comes early for every client`, probe: early.exchange };
  }

  /**
   * A fresh client in `headers` sends `count` + 1 requests, no more than maxRequests (at once where replies are slow):
   * the 429 among them, if any, with how many of them were allowed before it. Every one of them must be allowed.
   */
  private async limitedEarly(headers: Headers, count: number): Promise<{ allowed: number; exchange: Exchange } | undefined> {
    const n = Math.min(count + 1, this.settings.maxRequests);
    const replies = this.slow ? await this.postAtOnce(headers, n) : [];
    for (let i = replies.length; i < n; i++) {
      const reply = await this.post(headers);
      replies.push(reply);
      if (this.limitedWitness(reply)) break;
    }
    const limited = replies.find((r) => this.limitedWitness(r));
    return limited ? { allowed: replies.filter((r) => limiterView(r) === 'allowed').length, exchange: limited.exchange } : undefined;
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
      if (this.limitedWitness(again)) {
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
  private checkLimitedAnswer(reply: Reply, e: Expectation, label: string, id: string): void {
    const evidence = () => this.evidence(id, reply);
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
    const earlier = seen();
    const first = earlier.firstMessage;
    if (first && message !== first.text) {
      this.deviate(
        ['E-429-BODY-MESSAGE'],
        `${said} has message ${JSON.stringify(message)}, an earlier 429 of the run had ${JSON.stringify(first.text)}`,
        'the same fixed sentence on every 429',
        [first.exchange, ...evidence().filter((ex) => ex !== first.exchange)],
      );
    } else {
      earlier.firstMessage ??= { text: message, exchange: reply.exchange };
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
