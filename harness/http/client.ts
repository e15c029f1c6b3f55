import { performance } from 'node:perf_hooks';
import { answerKind, type AnswerKind } from '../answers.ts';
import { Deadline } from './deadline.ts';
import type { Agent, Dispatcher } from 'undici';
import type { Secrets } from '../secrets.ts';
import type { LoadedSpec } from '../spec/types.ts';
import { loadedOnFirstUse } from '../../interfaces/kit/lazy.ts';
import { matchOperation } from '../spec/load.ts';
import type { Operation } from '../spec/types.ts';
import { checkResponse } from '../validation/responses.ts';
import { cut, type Exchange } from './exchange.ts';
import { withExtras, type Extra } from './extras.ts';
import { Pacer } from './pacing.ts';
import { parseJson } from '../parse-json.ts';
import type { RequestSpec } from './request-spec.ts';
import { TroubleLog, troubleNamed, type TroubleKind } from './trouble.ts';

export type { RequestSpec } from './request-spec.ts';

/**
 * An interface's authentication, applied inside the client: it adds what the credentials call for and registers
 * everything it derives (a signature, a token) with `secrets` before returning, so that nothing can show it.
 */
export type Authenticate = (request: RequestSpec, secrets: Secrets, ctx: AuthenticationContext) => RequestSpec | Promise<RequestSpec>;

/** What an authentication step may need beyond the request: where it goes, and a way to log in first. */
export interface AuthenticationContext {
  /** The URL path the request will be sent to, base path included: what a signature over "the path" covers. */
  pathAsSent(path: string): string;
  baseUrl: string;
  /** Sends a request of the step's own (a login), captured like any other. */
  send(request: RequestSpec): Promise<Reply>;
  /** The interface's profile settings. */
  settings: any;
}

/** `T`: the body the spec documents (a type from generated/); what arrived is unverified until a check looks. */
export interface Reply<T = any> {
  status: number;
  /**
   * What the answer is (harness/answers.ts), worked out once with the operation's documented media type: a 2xx HTML
   * page where the operation answers JSON is not the API.
   */
  kind: AnswerKind;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: T | undefined;
  /** Monotonic times (performance.now) around the exchange: the server handled it in between. */
  sentAt: number;
  receivedAt: number;
  /**
   * When the response head was in (status and headers), before its body was read: the server had decided the answer
   * by then. A streamed reply's head can come long before its body ends.
   */
  headersAt: number;
  exchange: Exchange;
  /** Refused 401/403 after the authentication step used a session it remembered: send() asks it whether to send again. */
  renewSession?: () => Promise<boolean>;
}

/**
 * The target did not answer, or answered something that is not HTTP. The exchange is the evidence, but only against
 * the requirement the request was testing, and only while the target answers other requests, that operation among
 * them (see `stillAnswers`). `no-answer`: nothing within the time-out; `slow-body`: the answer began but its body did
 * not finish in time; `broken`: the connection closed or reset, or the answer was not HTTP; `given-up`: not sent at
 * all, because the target (or this operation) had stopped answering (an outage, never the request's fault).
 */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly exchange: Exchange,
    readonly kind: 'no-answer' | 'slow-body' | 'broken' | 'given-up',
  ) {
    super(message);
  }
}

/** The harness could not send what it built (a header value undici refuses, say): the harness's trouble, not the target's. */
export class HarnessError extends Error {}

/**
 * Closes the body of an answer the harness no longer reads (it came after the exchange's deadline). undici reports the
 * closing as a "Request aborted" error on the body; with no listener, that error escaped as an uncaught exception,
 * which Playwright pinned on whatever test was running ("the check broke") although the exchange had already been
 * named a time-out. An answer arriving just after the deadline, before undici's own time-out, did that.
 */
function release(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/** undici's own refusals of a request before anything reached the wire. */
const HARNESS_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_INVALID_URL', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_CHAR']);

/** A harmless documented request of the interface, and whether an answer to it is the API answering normally. */
export interface HealthCheck {
  request: RequestSpec;
  ok(reply: Reply): boolean;
  /**
   * The probe's other harmless requests (a second credential's read): like the health request's, their answers do not
   * show that the target answers the run's other requests (a gateway may let exactly these through).
   */
  probedToo?: RequestSpec[];
}

/** The base URL's path with the request's path under it: a gateway prefix ("/gateway") is kept in every request. */
export function targetUrl(baseUrl: string, path: string): URL {
  return urlUnder(baseOf(baseUrl), path);
}

/** A base URL's origin and path prefix ("/gateway"), the parts every request's URL is built on. */
interface Base {
  origin: string;
  prefix: string;
}

function baseOf(baseUrl: string): Base {
  const base = new URL(baseUrl);
  return { origin: base.origin, prefix: base.pathname.replace(/\/+$/, '') };
}

function urlUnder(base: Base, path: string): URL {
  // A URL the target handed out itself (a stream URL) is sent as it is.
  if (/^https?:\/\//i.test(path)) return new URL(path);
  return new URL(`${base.origin}${base.prefix}${path.startsWith('/') ? path : `/${path}`}`);
}

/**
 * A path that `new URL` would leave exactly as it is: nothing to percent-encode (no space, quote, %, non-ASCII), no
 * dot segment, no fragment, no empty query. Most requests of a run are such, and parsing a URL for each of them was
 * the largest part of what the client added to bare undici (npm run bench). Anything else goes through `urlUnder`.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/?]*$/;
const DOT_SEGMENT_OR_EMPTY_QUERY = /\/\.\.?(?:[/?]|$)|\?$/;

/** Where a request goes: the URL as text (for the evidence), its origin, and the request target sent to it. */
function destination(base: Base, path: string): { url: string; origin: string; target: string } {
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT_OR_EMPTY_QUERY.test(path)) {
    const target = base.prefix + path;
    return { url: base.origin + target, origin: base.origin, target };
  }
  const u = urlUnder(base, path);
  return { url: u.href, origin: u.origin, target: u.pathname + u.search };
}

export interface ClientOptions {
  interfaceName: string;
  baseUrl: string;
  spec?: LoadedSpec;
  secrets: Secrets;
  timeoutMs: number;
  /** A live target: pace requests and wait out a Retry-After the run did not provoke. */
  live: boolean;
  requestsPerSecond: number;
  /** Share of the profile's rate this process may use (the rate is split between parallel workers). */
  rateShare?: number;
  onExchange?: (ex: Exchange) => void;
  /**
   * Called for every request sent to an operation the spec marks as a write (x-write), whatever check sent it, with
   * the kind of its answer, or 'no-answer' (a reset, a time-out, a body that never ended: it may have taken effect).
   */
  onWrite?: (op: Operation, ex: Exchange, kind: AnswerKind | 'no-answer') => void;
  /** How to tell an outage from one request's trouble. */
  health?: HealthCheck;
  authenticate?: Authenticate;
  /** The interface's profile settings, for the authentication step. */
  settings?: unknown;
}

const trouble = new TroubleLog();
/**
 * Why the client's own requests (the harmless one asking whether the target still answers, an operation's control)
 * are not held to the spec when something else answered them: they are no check's, and a 429 in front of a target
 * whose spec documents one (chat) is the environment's there.
 */
const ownRequest = "the client's own request asking whether the target still answers: its trouble is the environment's, no check's answer";
const agents = new Map<string, Agent>();
const pacers = new Map<string, Pacer>();
const MAX_RETRY_AFTER_WAIT_S = 60;

/**
 * undici, loaded when the first request is sent: a process that only lists the tests (Playwright's runner, which is the
 * conformance command's own process) never sends one.
 */
const undici = loadedOnFirstUse<typeof import('undici')>('undici');

function agentFor(timeoutMs: number, localAddress?: string): Agent {
  const key = `${timeoutMs} ${localAddress ?? ''}`;
  let a = agents.get(key);
  if (!a) {
    a = new (undici().Agent)({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 4000, ...(localAddress ? { localAddress } : {}) });
    agents.set(key, a);
  }
  return a;
}

export async function closeAgents(): Promise<void> {
  await Promise.all([...agents.values()].map((a) => a.close()));
  agents.clear();
}

/**
 * The one HTTP client of the harness: every exchange is timed out, paced against live targets, redacted,
 * validated against the spec and handed to the evidence sink. Suites never call undici directly.
 */
export class Client {
  private readonly pacer: Pacer;
  private healthAt = -Infinity;
  private healthy = true;
  /** Set while the health request is out: its own trouble is counted, but asks no health question of its own. */
  private askingHealth = false;
  /** Set while an operation's own control is out (operationAnswers). */
  private askingControl = false;

  /** The base URL's origin and path prefix, parsed once: every request's URL is built on them. */
  private readonly base: Base;

  constructor(readonly options: ClientOptions) {
    const rate = options.live ? options.requestsPerSecond * (options.rateShare ?? 1) : 0;
    this.base = baseOf(options.baseUrl);
    // One pacer per target and process, so that the clients of successive tests share the process's rate.
    const key = `${this.base.origin} ${rate}`;
    this.pacer = pacers.get(key) ?? new Pacer(rate);
    pacers.set(key, this.pacer);
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  async send<T = any>(spec: RequestSpec): Promise<Reply<T>> {
    // A 429 the check did not provoke is waited out once, as Retry-After asks, on any target: a deployment may limit
    // its rate where the document shows no limit (an open point of its own), and the reference can take that reading.
    let reply = await this.once<T>(spec);
    // Sent once more with a fresh session, when the step's remembered one was refused (see RequestSpec.renewSession).
    if (reply.renewSession && (await reply.renewSession())) reply = await this.once<T>(spec);
    if (!spec.provokesLimit && reply.kind === 'throttled') {
      const wait = Number(reply.headers['retry-after']);
      if (Number.isFinite(wait) && wait >= 0 && wait <= MAX_RETRY_AFTER_WAIT_S) {
        await new Promise((r) => setTimeout(r, wait * 1000 + 50));
        const throttled = reply.exchange;
        // Not the check's subject: no response check holds it to a 429 its spec documents (harness/response-checks.ts).
        throttled.environment ??= 'a 429 the request did not provoke, waited out as its Retry-After asked';
        reply = await this.once<T>(spec);
        // Answered by the API once waited out: the throttle hid nothing (harness/response-checks.ts, troubled).
        if (reply.kind === 'accepted' || reply.kind === 'refused') throttled.waitedOut = true;
      }
    }
    return reply;
  }

  /**
   * Whether the target still answers normally: its harmless documented request, and, for a request that got no
   * answer (`unanswered`), the same operation too (it answered since, or answers a control now). A request that got no
   * answer is evidence against what it was testing only when this holds: otherwise the target, or that operation, is
   * down (a crash loop, a backend gone behind its balancer) and the check is inconclusive.
   */
  async stillAnswers(unanswered?: Exchange): Promise<boolean> {
    return (await this.whyNotAnswering(unanswered)) === undefined;
  }

  /** Why the target (or the unanswered request's operation) does not answer normally any more; undefined while it does. */
  async whyNotAnswering(unanswered?: Exchange): Promise<string | undefined> {
    const origin = this.base.origin;
    const op = unanswered?.operation;
    const given = trouble.givenUp(origin) ?? trouble.givenUpOn(origin, op);
    if (given) return given;
    if (!(await this.answersHealthCheck())) return 'the target no longer answers a harmless documented request either';
    if (!unanswered || !op) return undefined;
    if (trouble.answeredSince(origin, op, unanswered.startedAt + unanswered.durationMs)) return undefined;
    const control = this.controlOf(unanswered);
    if (!control) return `whether ${op} answers other requests cannot be told (no harmless request of it exists)`;
    try {
      const r = await this.once(control);
      if (r.kind === 'accepted' || r.kind === 'refused') return undefined;
      r.exchange.environment ??= ownRequest;
      return `${op} does not answer a control either (${r.status})`;
    } catch (e) {
      return `${op} does not answer a control either (${e instanceof TargetError ? e.exchange.error : (e as Error).message})`;
    }
  }

  /** The harmless documented request of the interface, answered normally; asked at most once a second. */
  private async answersHealthCheck(): Promise<boolean> {
    const health = this.options.health;
    if (!health) return true;
    if (performance.now() - this.healthAt < 1000) return this.healthy;
    this.askingHealth = true;
    try {
      const r = await this.once({ ...health.request, label: 'is the target still answering?' });
      this.healthy = (r.kind === 'accepted' || r.kind === 'refused') && health.ok(r);
      if (!(r.kind === 'accepted' || r.kind === 'refused')) r.exchange.environment ??= ownRequest;
    } catch {
      this.healthy = false;
    } finally {
      this.askingHealth = false;
    }
    this.healthAt = performance.now();
    return this.healthy;
  }

  /**
   * A control for a request that got no answer: the same operation asked something any deployment answers at once.
   * A read (GET) again, without its query; another method without credentials and without a body, which a secured
   * operation, or one that needs a body, must refuse: any answer of the API shows the operation still answers. An
   * unsecured operation that needs no body has no such request (it could be a write): none.
   */
  private controlOf(ex: Exchange): RequestSpec | undefined {
    const op = this.options.spec?.operations.find((o) => o.key === ex.operation);
    const path = ex.requestPath ?? new URL(ex.request.url).pathname;
    const label = `control: does ${ex.operation} still answer?`;
    if (ex.request.method === 'GET' || ex.request.method === 'HEAD') {
      return { method: ex.request.method, path, authenticate: Boolean(ex.beforeAuthentication), ...(ex.beforeAuthentication?.credential ? { credential: ex.beforeAuthentication.credential } : {}), label };
    }
    if (!op || (op.security.length === 0 && !op.requestBodyRequired)) return undefined;
    return { method: ex.request.method, path, authenticate: false, label };
  }

  /**
   * Counts a troubled exchange of the target; at GIVE_UP_AFTER in a row it asks the harmless documented request:
   * troubled too, the whole target is given up (every later request fails at once, named by the cause); answered,
   * only the operation that keeps being troubled is.
   */
  private async noteTrouble(exchange: Exchange, kind: TroubleKind): Promise<void> {
    // An operation's control asked about its own trouble adds none: the troubles in a row are the check's requests'.
    if (this.askingControl) return;
    const op = exchange.operation;
    const origin = this.base.origin;
    const due = trouble.troubled(origin, op, kind, this.probed(op));
    if (this.askingHealth) return;
    // Operation after operation troubled while only the probe's requests answer (onlyHealthAnswers).
    const dark = op && this.options.health ? trouble.onlyHealthAnswers(origin, this.unprobedOperations()) : undefined;
    if (!due.origin && !due.operation && !dark) return;
    if (!this.options.health) {
      // Nothing to ask: troubled this many times in a row, the target is taken to be down.
      if (due.origin) trouble.giveUp(origin, 'the client has no harmless request to ask it');
      return;
    }
    this.healthAt = -Infinity;
    if (!(await this.answersHealthCheck())) {
      trouble.giveUp(origin, `its harmless documented request (${this.options.health.request.method} ${this.options.health.request.path.split('?')[0]}) was not answered normally either`);
      return;
    }
    trouble.healthy(origin);
    // Operation after operation troubled while only the health check answers, and this one's control too: the target
    // answers nothing the run could judge (a gateway that lets its health check alone through), and is given up whole.
    // A control answered clears the streak (TroubleLog.answered).
    if (dark && !(await this.operationAnswers(exchange))) {
      trouble.giveUpDark(origin, `${this.options.health.request.method} ${this.options.health.request.path.split('?')[0]}`, dark);
      return;
    }
    // One operation troubled in a row while the target answers has gone dark only if it does not answer a control of
    // its own either: a 5xx that bad input provokes each time is the requests', and the operation goes on answering.
    if (due.operation && op && !(await this.operationAnswers(exchange))) trouble.giveUpOn(origin, op);
  }

  private probedOperations?: Set<string | undefined>;

  /** How many of the interface's operations the probe's requests do not ask (HealthCheck). */
  private unprobedOperations(): number {
    const spec = this.options.spec;
    return spec ? spec.operations.filter((o) => !this.probed(o.key)).length : Infinity;
  }

  /** Whether an operation is one the probe's harmless requests ask (HealthCheck): their answers show only that these answer. */
  private probed(operation: string | undefined): boolean {
    const health = this.options.health;
    const spec = this.options.spec;
    if (!health || !spec || operation === undefined) return false;
    this.probedOperations ??= new Set([health.request, ...(health.probedToo ?? [])].map((r) => matchOperation(spec, r.method, r.path.split('?')[0]).op?.key));
    return this.probedOperations.has(operation);
  }

  /** Whether the operation of a troubled exchange answers its control (controlOf) as the API; the control's own trouble is not counted. */
  private async operationAnswers(ex: Exchange): Promise<boolean> {
    const control = this.controlOf(ex);
    if (!control) return false;
    this.askingControl = true;
    try {
      const r = await this.once(control);
      if (r.kind === 'accepted' || r.kind === 'refused') return true;
      r.exchange.environment ??= ownRequest;
      return false;
    } catch {
      return false;
    } finally {
      this.askingControl = false;
    }
  }

  /** What the authentication step is given; a check that logs in itself uses the same. */
  authenticationContext(): AuthenticationContext {
    return {
      baseUrl: this.options.baseUrl,
      pathAsSent: (path) => urlUnder(this.base, path).pathname,
      send: (request) => this.send({ ...request, authenticate: false }),
      settings: this.options.settings,
    };
  }

  /** Values the run learnt that a profile's extras may name ("{tradingAccountId}"): see harness/http/extras.ts. */
  readonly learnt = new Map<string, string>();

  /** Remembers a value the run learnt (a trading account's id), for the profile's extras to name. */
  learn(name: string, value: string): void {
    this.learnt.set(name, value);
  }

  private async once<T>(request: RequestSpec): Promise<Reply<T>> {
    const { secrets, timeoutMs } = this.options;
    let asked: RequestSpec;
    try {
      asked = withExtras(request, this.options.spec, (this.options.settings as { extras?: Record<string, Extra> } | undefined)?.extras, this.learnt, (name) => (secrets.has(name) ? secrets.get(name) : undefined));
    } catch (e) {
      throw new HarnessError((e as Error).message);
    }
    // Authenticated afresh for every sending (a signature may cover a nonce or a time); the exchange keeps the request
    // as the check built it, so that a replay goes through the same step with its own profile's credentials.
    const spec = asked.authenticate && this.options.authenticate ? await this.options.authenticate(asked, secrets, this.authenticationContext()) : asked;
    let to: ReturnType<typeof destination>;
    try {
      to = destination(this.base, spec.path);
    } catch (e) {
      throw new HarnessError(`harness: cannot build a URL from ${this.options.baseUrl} and ${spec.path}: ${(e as Error).message}`);
    }
    const { url, origin } = to;
    // The spec's path, without the base URL's prefix.
    const q = spec.path.indexOf('?');
    const pathname = q < 0 ? spec.path : spec.path.slice(0, q);
    const headers: Record<string, string> = {};
    let body = spec.body;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    }
    // A header named again, in any letter case, replaces the earlier one (the content type the client set, say).
    for (const name in spec.headers) {
      const value = spec.headers[name];
      const lower = name.toLowerCase();
      for (const earlier in headers) if (earlier.toLowerCase() === lower) delete headers[earlier];
      if (value !== undefined) headers[name] = value;
    }
    const exchange: Exchange = {
      label: spec.label,
      request: { method: spec.method, url, headers: Object.entries(headers), body: body === undefined ? undefined : cut(body) },
      startedAt: Date.now(),
      durationMs: 0,
      requestPath: pathname,
    };
    if (spec !== asked) exchange.beforeAuthentication = { headers: Object.entries(asked.headers ?? {}).filter((h): h is [string, string] => h[1] !== undefined), body: asked.json !== undefined ? JSON.stringify(asked.json) : asked.body, json: asked.json !== undefined, ...(asked.credential ? { credential: asked.credential } : {}) };
    const op = this.options.spec ? matchOperation(this.options.spec, spec.method, pathname).op : undefined;
    exchange.operation = op?.key;

    const cause = trouble.givenUp(this.base.origin) ?? trouble.givenUpOn(this.base.origin, op?.key);
    if (cause) {
      exchange.error = `not sent: ${cause}`;
      this.options.onExchange?.(exchange);
      throw new TargetError(secrets.redact(`${spec.method} ${url}: ${exchange.error}`), exchange, 'given-up');
    }
    if (!spec.unpaced && this.pacer.active) await this.pacer.wait();

    const sentAt = performance.now();
    // The agent's connect, headers and body time-outs bound each stage, but a body dripped a byte at a time never
    // trips the body time-out (it measures the gap between chunks): one deadline bounds the whole exchange. A timer
    // per request, not an abort signal, which would cost half the client's throughput (measured by npm run bench).
    let res: Dispatcher.ResponseData | undefined;
    let headersAt: number | undefined;
    let text: string;
    let receivedAt: number;
    const deadline = new Deadline(timeoutMs);
    try {
      // The agent's own request: undici's top-level request would parse the URL again.
      const asked = agentFor(timeoutMs, spec.from).request({ origin, path: to.target, method: spec.method as Dispatcher.HttpMethod, headers, ...(body === undefined ? {} : { body }) });
      res = await deadline.race(asked, (late) => release(late.body));
      headersAt = performance.now();
      text = await deadline.race(res.body.text());
      receivedAt = performance.now();
    } catch (e) {
      const err = e as Error & { code?: string };
      if (HARNESS_CODES.has(err.code ?? '') || err.name === 'InvalidArgumentError') {
        throw new HarnessError(secrets.redact(`harness: undici refused to send ${spec.method} ${url} as built (${err.code ?? err.name}: ${err.message})`));
      }
      const late = e === Deadline.PASSED;
      // An answer that began but could not finish in time: its socket is closed, and it is named as a slow body.
      if (late && res) release(res.body);
      const timedOut = late || err.name === 'TimeoutError' || err.name === 'AbortError' || /Timeout/i.test(err.code ?? '') || /timeout/i.test(err.message);
      const slowBody = late && headersAt !== undefined;
      const kind = slowBody ? 'slow-body' : timedOut ? 'no-answer' : 'reset';
      exchange.durationMs = Math.round((performance.now() - sentAt) * 10) / 10;
      exchange.error = slowBody ? `a slow body: answered ${res!.statusCode}, but the body did not finish within ${timeoutMs} ms` : timedOut ? `no answer within ${timeoutMs} ms` : `${troubleNamed('reset')} (${err.code ?? err.name}: ${err.message})`;
      this.options.onExchange?.(exchange);
      // A write that got no answer may have taken effect all the same: it is listed, of unknown effect.
      if (op?.write) this.options.onWrite?.(op, exchange, 'no-answer');
      await this.noteTrouble(exchange, kind);
      throw new TargetError(secrets.redact(`${spec.method} ${url}: ${exchange.error}`), exchange, kind === 'reset' ? 'broken' : kind);
    } finally {
      deadline.clear();
    }
    // The answer has arrived: whatever the harness does with it from here (validation, recording, journaling) is the
    // harness's own doing, and an exception in it is never the target's deviation.
    try {
      const flatHeaders = flatten(res.headers);
      const kind = answerKind({ status: res.statusCode, headers: flatHeaders }, { json: answersJson(op) });
      exchange.durationMs = Math.round((receivedAt - sentAt) * 10) / 10;
      exchange.response = { status: res.statusCode, headers: flatHeaders, body: cut(text) };
      // Parsed once, when first needed: by the spec's check, or by the check that reads reply.json.
      let parsed: { value: unknown } | null | undefined;
      const parse = () => {
        if (parsed === undefined) {
          const value = parseJson(text);
          parsed = value === undefined ? null : { value };
        }
        return parsed ?? undefined;
      };
      // The target's own secrets (a provider's password in a configuration document) are redacted from here on; the
      // answer is parsed once, for this and the checks alike.
      const members = this.options.spec?.secretMembers ?? [];
      secrets.learnTargetSecrets(text, members, () => parse()?.value);
      secrets.learnTargetSecrets(typeof body === 'string' ? body : undefined, members);
      if (this.options.spec) {
        const p = checkResponse(this.options.spec, { method: spec.method, path: pathname, status: res.statusCode, headers: flatHeaders, body: text, parse }, op);
        if (p.schema.length || p.contentType.length || p.headers.length) {
          exchange.problems = { schema: p.schema, contentType: p.contentType, headers: p.headers };
        }
        if (p.documented) exchange.checked = p.applied;
      }
      this.options.onExchange?.(exchange);
      // Every request to an operation that changes state is listed, also those sent to be refused: on a deployment that
      // wrongly accepts them, they were writes.
      if (op?.write) this.options.onWrite?.(op, exchange, kind);
      // The API's own answers (a limit a check provoked among them) clear the trouble in a row; anything else counts.
      if (kind === 'accepted' || kind === 'refused' || kind === 'informational' || (kind === 'throttled' && spec.provokesLimit)) trouble.answered(this.base.origin, op?.key, this.askingHealth || this.probed(op?.key));
      else await this.noteTrouble(exchange, kind as TroubleKind);
      return {
        status: res.statusCode,
        kind,
        headers: flatHeaders,
        text,
        get json() {
          return parse()?.value as T | undefined;
        },
        sentAt,
        receivedAt,
        headersAt,
        exchange,
        ...((res.statusCode === 401 || res.statusCode === 403) && spec.renewSession ? { renewSession: spec.renewSession } : {}),
      };
    } catch (e) {
      throw harnessErrorAfterAnswer(e, `${spec.method} ${url}`, res.statusCode, secrets);
    }
  }
}

/** Whether the operation's documented successes answer JSON: then a 2xx HTML page is not the API. */
function answersJson(op: Operation | undefined): boolean {
  if (!op) return false;
  return Object.values(op.responses).some((r) => /^2/.test(r.status) && (r.contentTypes ?? (r.contentType ? [r.contentType] : [])).some((t) => /json/i.test(t)));
}

/** An exception of the harness's own after the target answered: the harness's error, with its stack, redacted. */
function harnessErrorAfterAnswer(e: unknown, request: string, status: number, secrets: { redact(text: string): string }): HarnessError {
  const err = e instanceof Error ? e : new Error(String(e));
  const stack = (err.stack ?? '').split('\n').slice(1, 8).join('\n');
  return new HarnessError(secrets.redact(`harness error after ${request} was answered ${status} (not the target's doing): ${err.name}: ${err.message}${stack ? `\n${stack}` : ''}`), { cause: err });
}

/** undici gives header names in lower case, and a repeated header as an array: joined here, as HTTP allows. */
function flatten(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  for (const k in raw) {
    if (typeof raw[k] === 'string') continue;
    // Rare: copied, so that the object undici made stays as it was.
    const flat: Record<string, string> = {};
    for (const name in raw) {
      const v = raw[name];
      if (v !== undefined) flat[name] = typeof v === 'string' ? v : v.join(', ');
    }
    return flat;
  }
  return raw as Record<string, string>;
}
