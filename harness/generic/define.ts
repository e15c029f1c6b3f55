/**
 * The generic layer of a suite: one test per request check of the registry (harness/generic/checks.ts), run over
 * every operation of the interface's spec. Requests go through the interface's own authentication step (a token after
 * a signed login, a fresh nonce, a per-request signature); the suite's hooks give what the spec alone cannot (an id an
 * earlier request created, a fresh user to update, a credential of another role).
 */
import type { Identity, SuiteTest } from '../fixtures.ts';
import { Inconclusive, NotTested, RequirementViolation, deviation, reqTags } from '../verdicts.ts';
import { classify, messageOf } from '../classify.ts';
import { loadSpec } from '../spec/load.ts';
import type { LoadedSpec, Operation } from '../spec/types.ts';
import type { Profile } from '../profile/types.ts';
import { TargetError, type Client, type Reply, type RequestSpec } from '../http/client.ts';
import { Undecided } from '../answers.ts';
import type { Secrets } from '../secrets.ts';
import type { WriteJournal } from '../writes.ts';
import type { Target } from '../targets.ts';
import { CHECKS, selectedChecks, type RequestCheckName } from './checks.ts';
import { REQUEST_CHECKS, type Finding, type OperationContext, type Prepared } from './request-checks.ts';
import { validRequest } from './requests.ts';

/** What a suite's generic hooks may use: the test's fixtures. */
export interface GenericContext {
  api: Client;
  secrets: Secrets;
  identity: Identity;
  writes: WriteJournal;
  profile: Profile;
  target: Target;
  spec: LoadedSpec;
  settings: any;
}

/** The interface's part of the generic requests, made once per test. */
export interface OperationSource {
  /**
   * A valid request of the operation, sent through the interface's authentication step (`authenticate`, `credential`),
   * fresh on each call (a write's own request is valid once); by default the spec's, from its schemas.
   */
  valid?(op: Operation, credential?: string): Promise<Prepared | undefined> | Prepared | undefined;
  /** The credential that carries a role the operation refuses (see Operation.refusedRoles), or why the run has none. */
  otherRole?(role: string, op: Operation): Promise<{ credential?: string } | { missing: string }> | { credential?: string } | { missing: string };
  /** Why a refusal of a valid request proves nothing on this target (it may rest on what the profile leaves unstated). */
  refusalOpen?(op: Operation, reply: Reply): string | undefined;
  /** Why this target needs no credentials for the operation (authentication switched off), if it does not. */
  unsecured?(op: Operation): string | undefined;
  /**
   * Called before any request to a write operation is sent (a valid one, bad input, a control): the suite journals
   * what the request could change, should a target take it, so that it is put back when the test ends.
   */
  beforeWrite?(op: Operation, request: RequestSpec): Promise<void> | void;
  /**
   * Called with the answer to each request to a write operation: the suite may undo at once what an accepted one
   * changed, while it still holds what it took to send it (a lease on the account's balances, say).
   */
  afterWrite?(op: Operation, request: RequestSpec, reply: Reply): Promise<void> | void;
  /**
   * Why no request at all may go to this write operation although the profile allows writes (one that moves funds the
   * profile does not name): then none is sent, not even one a conforming target must refuse, which a broken one could
   * take.
   */
  writeForbidden?(op: Operation): string | undefined;
  /** Undoes what the test's valid requests changed, once it ends. */
  done?(): Promise<void>;
}

export interface GenericHooks {
  /** Headers every request of this interface carries (a fresh client identity, for instance). */
  baseHeaders?: (identity: Identity) => Record<string, string>;
  /**
   * Whether the profile leaves the operation enabled. One it switches off is judged by the interface's disabled rule
   * alone (a bridge's C-DISABLED-403): no generic check sends it anything, nor judges what it answers.
   */
  enabled?: (op: Operation, profile: Profile) => boolean;
  /** Whether an answer is the document's own answer of a switched-off operation: such an operation is left to its disabled rule too. */
  answersDisabled?: (op: Operation, reply: Reply) => boolean;
  /** @deprecated no longer read: a switched-off operation is not judged by the generic checks at all. */
  whenDisabled?: number[];
  /** The interface's fixture for the generic requests. */
  source?: (ctx: GenericContext) => Promise<OperationSource> | OperationSource;
}

/** The spec's own valid request, authenticated where the operation is secured. */
export function specRequest(spec: LoadedSpec, op: Operation, values?: Record<string, unknown>, credential?: string): Prepared {
  return { request: { ...validRequest(spec, op, values), ...(op.security.length ? { authenticate: true, credential } : {}) } };
}

/** Response checks a request check's test carries: what its answers are also held to. */
function carried(name: RequestCheckName, spec: LoadedSpec, selected: ReadonlySet<string>): string[] {
  if (name !== 'positive-data-acceptance') return [];
  const p = spec.prefix;
  const documented = spec.operations.flatMap((op) => Object.values(op.responses).filter((r) => /^2/.test(r.status)));
  const ids = [
    // A success the spec gives no body or media type cannot break GEN-SCHEMA or GEN-CONTENT-TYPE: not claimed then.
    ...(documented.some((r) => r.schema) && selected.has('response-schema-conformance') ? [`${p}-GEN-SCHEMA`] : []),
    ...(documented.some((r) => r.contentType) && selected.has('content-type-conformance') ? [`${p}-GEN-CONTENT-TYPE`] : []),
    ...(selected.has('response-headers-conformance') && spec.operations.some((op) => Object.values(op.responses).some((r) => /^2/.test(r.status) && Object.keys(r.headers).length > 0)) ? [`${p}-GEN-HEADERS`] : []),
    ...(selected.has('status-code-conformance') ? [`${p}-GEN-STATUS`] : []),
  ];
  return ids.filter((id) => spec.requirements.some((r) => r.id === id));
}

/**
 * The generic checks for every operation of an interface, as schema-driven testers do: one test per selected request
 * check (`--checks`); its findings on each operation become one verdict per requirement.
 */
export function defineGenericChecks(test: SuiteTest, hooks: GenericHooks = {}): void {
  const interfaceName = test.interfaceName;
  const spec = loadSpec(interfaceName);
  const has = (suffix: string) => spec.requirements.some((r) => r.id === `${spec.prefix}-${suffix}`);
  const selected = selectedChecks();

  test.describe('generic checks derived from the spec', () => {
    for (const check of CHECKS) {
      if (check.kind !== 'request') continue;
      const impl = REQUEST_CHECKS[check.name];
      const ops = spec.operations.filter((op) => impl.applies(op, spec));
      // GEN-NO-5XX is not-a-server-error's, whichever request check sends the bad input: `--checks
      // negative-data-rejection` alone judges GEN-REFUSAL-STATUS and no more.
      const judgedHere = (suffix: string) => (suffix === 'GEN-NO-5XX' ? selected.has('not-a-server-error') : selected.has(check.name));
      const own = impl.judges.filter((suffix) => has(suffix) && judgedHere(suffix));
      const ids = [...own.map((s) => `${spec.prefix}-${s}`), ...carried(check.name, spec, selected)];
      if (ops.length === 0 || ids.length === 0) continue;

      test(`${check.name}: ${check.summary}`, { tag: reqTags(...ids) }, async ({ api, verify, notApplicable, note, secrets, identity, writes, profile, target, spec: targetSpec }) => {
        const settings = profile.interfaces[interfaceName as keyof Profile['interfaces']]?.settings;
        // The spec as this target serves it: paths a profile moves (x-path-setting), under the base URL as it is given.
        const source = (await hooks.source?.({ api, secrets, identity, writes, profile, target, spec: targetSpec, settings })) ?? {};
        const findings: Finding[] = [];
        try {
          for (const op of ops) findings.push(...(await runOn(op)));
        } finally {
          await source.done?.();
        }
        for (const suffix of own) {
          const id = `${spec.prefix}-${suffix}`;
          const mine = findings.filter((f) => f.requirement === suffix);
          if (mine.length > 0 && mine.every((f) => f.outcome === 'not-applicable')) {
            notApplicable(id, [...new Set(mine.map((f) => f.message))].join('; '));
            continue;
          }
          const passed = await verify(id, () => conclude(mine));
          // A pass needs one operation that held; those left undecided beside it are said, not hidden.
          const undecided = mine.filter((f) => f.outcome === 'inconclusive' || f.outcome === 'not-tested');
          if (passed && undecided.length) note(secrets.redact(`${id} passed on ${mine.filter((f) => f.outcome === 'held').length} operation(s); undecided on ${undecided.length}:\n${undecided.map((f) => `${f.outcome}: ${f.message}`).join('\n')}`));
        }

        async function runOn(op: Operation): Promise<Finding[]> {
          // Switched off, an operation is its disabled rule's alone: what it answers then (a 404 page, a 403) is no
          // evidence for auth, method or schema (issue 43: two false musts on a real bridge).
          if (!(hooks.enabled?.(op, profile) ?? true)) return impl.judges.map((requirement) => ({ requirement, outcome: 'not-applicable', message: `${op.key} is switched off in the profile: judged by its disabled rule alone` }));
          // The operation where this target serves it (reports keep naming it by the spec's key).
          const served = targetSpec.operations.find((o) => o.key === op.key) ?? op;
          const forbiddenWhy = op.write && writes.allowed ? source.writeForbidden?.(served) : undefined;
          const ctx: OperationContext = {
            spec: targetSpec,
            op: served,
            send: async (request) => {
              if (op.write) await preparing(op, 'journalling what a write may change', () => source.beforeWrite?.(op, request));
              const reply = await api.send(request);
              if (op.write) await preparing(op, 'undoing what a write changed', () => source.afterWrite?.(op, request, reply));
              return reply;
            },
            secrets,
            answersDisabled: (reply) => hooks.answersDisabled?.(op, reply) ?? false,
            writesAllowed: writes.allowed && !forbiddenWhy,
            writeForbiddenWhy: forbiddenWhy,
            baseHeaders: hooks.baseHeaders?.(identity) ?? {},
            valid: async (credential) => (await preparing(op, 'preparing its valid request', () => source.valid?.(op, credential))) ?? specRequest(targetSpec, served, {}, credential),
            unsecured: () => source.unsecured?.(op),
            refusalOpen: (reply) => source.refusalOpen?.(op, reply),
            otherRoles: async () =>
              Promise.all(
                op.refusedRoles.map(async (role) => {
                  const c = (await source.otherRole?.(role, op)) ?? { missing: `the run has no credential of the role ${role}` };
                  return 'missing' in c ? { role, missing: c.missing } : { role, credential: c.credential };
                }),
              ),
          };
          try {
            return await impl.run(ctx);
          } catch (e) {
            // A harness error is the check breaking, not a finding: it ends the test, and the run exits 2 naming it
            // (as the README promises), instead of passing on the operations that ran before it.
            if (isHarnessFault(e)) throw e;
            // One operation's trouble (no answer, an outage) is judged on its own; the others still run.
            const c = await classify(e, api);
            const exchanges = e instanceof RequirementViolation ? e.exchanges : undefined;
            const outcomeOf = (requirement: string): Finding['outcome'] => {
              if (c.kind === 'deviation') return 'broken';
              if (c.kind === 'no-answer') return (impl.brokenByNoAnswer ?? impl.judges).includes(requirement) ? 'broken' : 'not-tested';
              return c.kind === 'not-tested' ? 'not-tested' : 'inconclusive';
            };
            const trouble = c.kind === 'inconclusive' && (e instanceof TargetError || e instanceof Undecided);
            return impl.judges.map((requirement) => ({ requirement, outcome: outcomeOf(requirement), message: `${op.key}: ${c.message}`, exchanges, ...(trouble ? { trouble } : {}) }));
          }
        }
      });
    }
  });
}

/**
 * What the suite's source does to prepare a check's request (log in, place an order to look up, journal a document)
 * is not what the check judges: its trouble, even a deviation of another requirement or a dropped connection, leaves
 * the operation inconclusive for the generic requirement (or not tested, as the source says), never broken.
 */
async function preparing<T>(op: Operation, what: string, step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof NotTested || e instanceof Inconclusive) throw e;
    throw new Inconclusive(`${op.key}: ${what} failed, so the check could not judge it: ${messageOf(e)}`);
  }
}

/**
 * An error of the harness's own inside a check (a TypeError, a bug in a source hook): not the target's, not the
 * environment's. Everything a check may throw on purpose is one of the verdicts' errors, a target's or the client's.
 */
export function isHarnessFault(e: unknown): boolean {
  if (e instanceof RequirementViolation || e instanceof NotTested || e instanceof Inconclusive || e instanceof TargetError) return false;
  if (e instanceof Error && ('matcherResult' in e || /^expect\(/.test(e.message))) return false;
  return true;
}

/**
 * One verdict from every operation's finding: broken anywhere fails it; else a pass needs one operation that held and
 * none that the environment's trouble left undecided (a throttle, a 5xx, no answer): a requirement over every
 * operation is not passed on the few the trouble spared.
 */
export function conclude(findings: Finding[]): void {
  const broken = findings.filter((f) => f.outcome === 'broken');
  if (broken.length) {
    const expected = [...new Set(broken.flatMap((f) => (f.expected ? [f.expected] : [])))].join('; ') || undefined;
    throw deviation(broken.map((f) => f.message).join('\n'), expected, broken.flatMap((f) => f.exchanges ?? []));
  }
  const troubled = findings.filter((f) => f.trouble);
  if (troubled.length) {
    const held = findings.filter((f) => f.outcome === 'held').length;
    throw new Inconclusive(`${held ? `held on ${held} operation(s), but ` : ''}the environment's trouble left ${troubled.length} undecided:\n${troubled.map((f) => f.message).join('\n')}`);
  }
  if (findings.some((f) => f.outcome === 'held')) return;
  const inconclusive = findings.filter((f) => f.outcome === 'inconclusive');
  if (inconclusive.length) throw new Inconclusive(inconclusive.map((f) => f.message).join('\n'));
  throw new NotTested(findings.filter((f) => f.outcome !== 'held').map((f) => f.message).join('\n') || 'no operation to judge');
}
