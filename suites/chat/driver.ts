/**
 * Drives chat clients against the target and holds every answer against the model (model.ts). A deviation names
 * the requirements whose breach explains it; the spec files turn deviations into verdicts.
 */
import type { components } from '../../generated/chat.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import type { ChatSettings, Profile } from '../../harness/profile/types.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { SlidingWindow, clientIdOf, placeOf, type Expectation, type Headers, type Place, type When } from './model.ts';

/** The chat settings of the profile (its loader fills in the documented defaults: one instance, and so on). */
export function chatSettings(profile: Profile): ChatSettings {
  const s = profile.interfaces.chat?.settings;
  if (!s) throw new Error('harness: the profile has no chat entry');
  return s;
}

/**
 * Behind a proxy that rewrites X-Forwarded-For every request of the run reaches the limiter as one client, so checks
 * running side by side would spend each other's allowance: counting cannot be judged, only the rest.
 */
export const SHARED_COUNTER =
  'the profile says a proxy rewrites X-Forwarded-For (clientAddressesPreserved: false): every request of the run shares one counter, and checks running side by side would spend each other\'s allowance';

export const CHAT_BODY: components['schemas']['ChatRequest'] = { messages: [{ role: 'user', content: 'Hola' }] };

/** The model's name for the socket address, which the harness cannot see. */
export const SOCKET = 'socket';

/** The header forms a client can name itself with; all of them name `address` in the document's reading. */
export type Form = 'xff' | 'xff-chain' | 'xff+xri' | 'xri';
export const FORMS: Form[] = ['xff', 'xff-chain', 'xff+xri', 'xri'];

/** A client address, and a second one that may only show where the document says it does not count. */
export interface Addresses {
  address: string;
  decoy: string;
}

export function headersOf(form: Form, a: Addresses): Headers {
  switch (form) {
    case 'xff':
      return { 'X-Forwarded-For': a.address };
    case 'xff-chain':
      return { 'X-Forwarded-For': `${a.address}, ${a.decoy}` };
    case 'xff+xri':
      return { 'X-Forwarded-For': a.address, 'X-Real-IP': a.decoy };
    case 'xri':
      return { 'X-Real-IP': a.address };
  }
}

/** The requirement that makes a form name its first address (plain X-Forwarded-For is the baseline). */
const FORM_REQUIREMENT: Record<Form, string | undefined> = {
  xff: undefined,
  'xff-chain': 'E-CLIENT-ID-XFF-FIRST',
  'xff+xri': 'E-CLIENT-ID-XFF-FIRST',
  xri: 'E-CLIENT-ID-XREALIP',
};
const formRequirements = (forms: Iterable<Form>) => [...new Set([...forms].map((f) => FORM_REQUIREMENT[f]).filter((r): r is string => !!r))];

export const toleranceNote = (maxRoundTripMs: number) =>
  `E: Retry-After tolerance 1 s + measured round trip (max ${maxRoundTripMs} ms) = ${(1 + maxRoundTripMs / 1000).toFixed(3)} s`;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const whenOf = (r: Reply): When => ({ sentAt: r.sentAt, receivedAt: r.receivedAt });

export interface Deviation {
  ids: string[];
  message: string;
  expected: string;
  /** The client's exchanges up to the deviation: the evidence. */
  exchanges: Exchange[];
}

interface Sent {
  at: When;
  status: number;
  form: Form;
  exchange: Exchange;
}
const isLimited = (s: { status: number }) => s.status === 429;

/** The target left the model's track: the client is not followed further (what follows would only echo it). */
class Stop extends Error {}

export class ChatRun {
  readonly model: SlidingWindow;
  readonly deviations: Deviation[] = [];
  readonly statuses: number[] = [];
  private readonly history = new Map<string, Sent[]>();
  private maxRttMs = 0;
  private message?: string;

  /** `judged`: the requirements this test gives a verdict on (and has not set aside). */
  constructor(
    private readonly api: Client,
    readonly settings: ChatSettings,
    private readonly fresh: () => string,
    private readonly judged: (id: string) => boolean,
  ) {
    this.model = new SlidingWindow(settings.windowMs, settings.maxRequests, settings.instances);
  }

  client(): Addresses {
    return { address: this.fresh(), decoy: this.fresh() };
  }

  /** The longest round trip so far, in whole ms (rounded up). */
  get maxRoundTripMs(): number {
    return Math.ceil(this.maxRttMs);
  }

  /** Retry-After is whole seconds rounded either way, from a wait the brackets bound: one second plus the round trip. */
  get toleranceS(): number {
    return 1 + this.maxRoundTripMs / 1000;
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
    this.history.set(id, [...past, { at, status: reply.status, form, exchange: reply.exchange }]);
    const label = `${id} (${form}, ${JSON.stringify(headers)})`;
    const evidence = () => this.exchangesOf(id);
    if (limited) this.checkLimitedAnswer(reply, expected, label, evidence);
    this.model.record(id, at, limited);

    const { windowMs: w, maxRequests: m, instances: n } = this.settings;
    if (expected.answer === 'allowed' && limited) {
      const blame = await this.blameLimited(past, at, expected, form);
      this.deviate(
        blame.ids,
        `${label} got 429 while at most ${expected.possible} of its stamps can be in the ${w} ms window (maxRequests ${m}); ${blame.why}. ${this.timeline(id)}`,
        `allowed (not 429): fewer than ${m} stamps in the window`,
        [...evidence(), ...(blame.probe ? [blame.probe] : [])],
      );
      throw new Stop();
    }
    if (expected.answer === 'limited' && !limited) {
      const blame = this.blameAllowed(past, at, form);
      this.deviate(
        blame.ids,
        `${label} got ${reply.status}, not 429, while ${expected.certain} of its stamps are certainly in the ${w} ms window (limit ${n > 1 ? `${n} instances x ${m}` : m}); ${blame.why}. ${this.timeline(id)}`,
        `429: ${n > 1 ? `${n} x ` : ''}${m} stamps in the window`,
        evidence(),
      );
      throw new Stop();
    }
    return limited;
  }

  /** Sends until limited. */
  async fill(who: Addresses, form: Form = 'xff'): Promise<void> {
    const { maxRequests: m, instances: n } = this.settings;
    // The model demands a 429 after n x m stamps, and a miss stops the client: the bound is never reached.
    for (let i = 0; i < 2 * n * m + 2; i++) if (await this.send(who, form)) return;
    throw new Error(`harness: ${who.address} was never limited and the model never demanded it`);
  }

  /** Retries every tenth of a window while limited. */
  async pollUntilAllowed(who: Addresses, form: Form = 'xff'): Promise<void> {
    // Once every stamp has left the window the model demands "allowed" and a miss stops the client.
    for (let i = 0; i < 40; i++) {
      await sleep(this.settings.windowMs / 10);
      if (!(await this.send(who, form))) return;
    }
    throw new Error(`harness: ${who.address} stayed limited and the model never demanded otherwise`);
  }

  /** Runs client flows side by side; a flow that left the model's track just ends. */
  async together(flows: Array<() => Promise<void>>): Promise<void> {
    const results = await Promise.allSettled(flows.map((f) => f()));
    for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof Stop)) throw r.reason;
  }

  /** For plain tests: the first deviation that names `id`. */
  check(id: string): void {
    const d = this.deviations.find((x) => x.ids.includes(id));
    if (d) throw new RequirementViolation(id, d.message, d.expected, d.exchanges);
  }

  /** For properties: the first deviation, under the first requirement it names that is still judged. */
  throwFirst(): void {
    const d = this.deviations[0];
    if (d) throw new RequirementViolation(d.ids[0], d.message, d.expected, d.exchanges);
  }

  private deviate(ids: string[], message: string, expected: string, exchanges: Exchange[]): void {
    const mine = ids.filter(this.judged);
    if (mine.length > 0) this.deviations.push({ ids: mine, message, expected, exchanges });
  }

  private exchangesOf(id: string): Exchange[] {
    return (this.history.get(id) ?? []).map((s) => s.exchange);
  }

  /** Limited although the model says allowed: which breach would have made the client full? */
  private async blameLimited(past: Sent[], at: When, e: Expectation, form: Form): Promise<{ ids: string[]; why: string; probe?: Exchange }> {
    const { windowMs: w, maxRequests: m } = this.settings;
    // A fresh client in the same form, right away: if it is limited too, this client is not kept apart.
    const probe = await this.post(headersOf(form, this.client()));
    if (isLimited(probe)) {
      return { ids: [...formRequirements([form]), 'E-PER-CLIENT'], why: 'a fresh client sending the same header form right after was limited too: counters are shared', probe: probe.exchange };
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
      if (e.possible === 0) ids.push('E-PRUNE-BEFORE-COUNT');
      ids.push('E-WINDOW-SLIDING');
      why.push(`it would be full had its ${expired} stamp(s) older than the window still counted`);
    }
    if (ids.length > 0) return { ids, why: why.join('; ') };
    // With stamps of its own, it got fewer than maxRequests through; with none, someone else's stamps counted.
    return {
      ids: [...formRequirements([form]), ...(e.possible === 0 ? ['E-PER-CLIENT'] : ['E-LIMIT-ALLOWED', 'E-PER-INSTANCE'])],
      why: 'neither stamps older than the window nor limited requests explain it',
    };
  }

  /** Allowed although the model says limited: which breach would have let it through? */
  private blameAllowed(past: Sent[], at: When, form: Form): { ids: string[]; why: string } {
    const w = this.settings.windowMs;
    const stamps = past.filter((s) => !isLimited(s));
    const inWindow = stamps.filter((s) => placeOf(s.at, at, w) !== 'outside');
    const forms = new Set<Form>([form, ...inWindow.map((s) => s.form)]);
    if (forms.size > 1) {
      return { ids: formRequirements(forms), why: `the document names one client in the header forms ${[...forms].join(', ')}, the target counted them apart` };
    }
    if (past.some(isLimited) || stamps.some((s) => placeOf(s.at, at, w) === 'outside')) {
      return { ids: ['E-WINDOW-SLIDING'], why: 'it was let through again before its oldest stamp had left the window' };
    }
    return { ids: ['E-LIMIT-429', 'E-PER-INSTANCE'], why: 'a fresh client got more requests through in one window than the limit' };
  }

  /** The answer of a 429: body, headers, and the wait it announces. */
  private checkLimitedAnswer(reply: Reply, e: Expectation, label: string, evidence: () => Exchange[]): void {
    const { windowMs: w, instances: n } = this.settings;
    const windowS = Math.ceil(w / 1000);
    // Typed as the spec documents a 429 body; every member is checked below before it is trusted.
    const json = reply.json as Partial<components['schemas']['TooManyRequests']> | undefined;
    const body = json && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
    const said = `the 429 to ${label}`;
    if (body?.error !== 'Too Many Requests') this.deviate(['E-429-BODY-ERROR'], `${said} has error ${JSON.stringify(body?.error)} (body ${reply.text.slice(0, 200)})`, '"Too Many Requests"', evidence());
    const message = body?.message;
    if (typeof message !== 'string' || message.trim() === '') {
      this.deviate(['E-429-BODY-MESSAGE'], `${said} has message ${JSON.stringify(message)}`, 'a non-empty string', evidence());
    } else if (this.message !== undefined && message !== this.message) {
      this.deviate(['E-429-BODY-MESSAGE'], `${said} has message ${JSON.stringify(message)}, an earlier 429 had ${JSON.stringify(this.message)}`, 'the same fixed sentence on every 429', evidence());
    } else {
      this.message = message;
    }
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

  /** A client's requests as evidence: ms since its first request left, sent..answered, status. */
  private timeline(id: string): string {
    const sent = this.history.get(id) ?? [];
    const t0 = sent[0]?.at.sentAt ?? 0;
    const r = (x: number) => Math.round(x - t0);
    return `Its requests (ms since its first: sent..answered status form): ${sent.map((s) => `${r(s.at.sentAt)}..${r(s.at.receivedAt)} ${s.status} ${s.form}`).join(', ')}`;
  }
}
