import fc from 'fast-check';
import type { RequirementId } from '../../generated/stream-proxy.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { groupOf, loadSpec } from '../../harness/spec/load.ts';
import { depthFactor } from '../../harness/options.ts';
import { commandProperty, type Step } from '../../harness/stateful.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import { UserModel, type UserAction } from './model.ts';
import { test, reqTags, type Proxy } from './proxy.ts';
import { guardUser as guardOne } from './restore.ts';
import { userBody } from './user-body.ts';
import { accepted, answered, mustAnswer } from '../../harness/answers.ts';
import { beforeJudging } from './before-judging.ts';

const USERS = groupOf<RequirementId>(loadSpec('stream-proxy'), 'proxy-users');
const USER_CASES = 100;

interface Real {
  proxy: Proxy;
  writes: WriteJournal;
  /** This case's usernames and tokens: fresh per case, so that cases never meet each other's users. */
  names: string[];
  tokens: string[];
  targets: string[];
  guarded: Set<string>;
}

test('proxy users, model-based property: create, update, move and delete with duplicate names and tokens', { tag: reqTags(...USERS) }, async ({ stream: proxy, property, notApplicable, notTested, writes, identity, profile, target, recorder, api }, testInfo) => {
  const judged = USERS.filter((id) => !proxy.scope.requirements[id]);
  for (const id of USERS) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
  if (judged.length === 0) return;
  fitTimeout(testInfo, { requests: USER_CASES * depthFactor() * 14 * 2 }, profile, !target.reference);
  const targets = proxy.settings.targets.map((t) => t.name);
  // The lease and the controls judge nothing: what stops them (a throttle, an outage) leaves the users undecided.
  const ready = await beforeJudging(judged, { recorder, api, what: 'before the user property' }, async () => {
    await proxy.exclusive();
    return { open: proxy.stated('extras') ? undefined : await controlUser({ proxy, writes, names: [], tokens: [], targets, guarded: new Set() }, identity.name('user')) };
  });
  if (!ready) return;
  const { open } = ready;
  if (open) return judged.forEach((id) => notTested(id, open));
  await property(
    commandProperty<UserModel, Real>({
      id: 'stream-proxy-users',
      requirements: judged,
      runs: USER_CASES,
      steps: userSteps(targets.length),
      maxSteps: 10,
      setup: () => {
        const base = identity.name('user');
        return {
          model: new UserModel(),
          real: { proxy, writes, names: [0, 1, 2].map((i) => `${base}-u${i}`), tokens: [0, 1, 2].map((i) => `${base}-t${i}`), targets, guarded: new Set() },
        };
      },
    }),
  );
});

type UserStep = Step<UserModel, Real>;

/** Before a user may come to exist: journalled once, and deleted (from every target) when the test ends. */
const guardUser = (r: Real, username: string) => guardOne(r.writes, (q) => r.proxy.admin(q), r.targets, r.guarded, username);

/**
 * Where the profile does not state what the user operations need beyond the document (settings.extras), each is first
 * sent once as a control: a user created with a token, updated and deleted, each valid by the document. Returns why
 * the property cannot judge (a control refused), or undefined.
 */
async function controlUser(r: Real, username: string): Promise<string | undefined> {
  guardUser(r, username);
  const path = `/api/v1/user/${encodeURIComponent(r.targets[0])}`;
  const controls = [
    { method: 'POST', path, json: body(r, username, `${username}-t1`), label: `create user ${username} (the control)` },
    { method: 'PUT', path, json: body(r, username, `${username}-t2`), label: `update user ${username} (the control)` },
    { method: 'DELETE', path: `${path}/${encodeURIComponent(username)}`, label: `delete user ${username} (the control)` },
  ];
  for (const c of controls) {
    const reply = await r.proxy.admin(c);
    const open = r.proxy.refusalOpen(reply);
    if (open) return `${c.label} was ${open}`;
    // Refused for a reason the profile states: the property judges it.
    if (!accepted(reply, c.label)) return undefined;
  }
  return undefined;
}

const body = (r: Real, username: string, token: string | undefined) => userBody(r.proxy.settings, username, token);

function userSteps(targetCount: number): Array<fc.Arbitrary<UserStep>> {
  const who = fc.integer({ min: 0, max: 2 });
  const where = fc.integer({ min: 0, max: targetCount - 1 });
  const token = fc.integer({ min: 0, max: 2 });
  const step = (action: (r: Real) => UserAction, describe: string): UserStep => ({
    describe: () => describe,
    testing: ['B-USER-CREATE', 'B-USER-DUP-USERNAME', 'B-USER-DUP-TOKEN', 'B-USER-UPDATE', 'B-USER-MOVE', 'B-USER-DELETE'],
    applies: () => true,
    run: async (m, r, saw) => {
      const a = action(r);
      const e = m.expect(a);
      if (a.kind !== 'delete') guardUser(r, a.username);
      const t = encodeURIComponent(a.target);
      const reply =
        a.kind === 'delete'
          ? await r.proxy.admin({ method: 'DELETE', path: `/api/v1/user/${t}/${encodeURIComponent(a.username)}`, label: describe })
          : await r.proxy.admin({ method: a.kind === 'create' ? 'POST' : 'PUT', path: `/api/v1/user/${t}`, json: body(r, a.username, a.token), label: describe });
      // The model names the status and the rule it is about; a throttle or a server error decides nothing (thrown).
      mustAnswer(reply, e.status, describe, { rule: e.requirement, expected: String(e.status) });
      saw(e.requirement);
      if (answered(reply, 200)) m.apply(a);
    },
  });
  return [
    fc.tuple(who, where, fc.option(token, { nil: undefined })).map(([u, t, k]) =>
      step((r) => ({ kind: 'create', username: r.names[u], target: r.targets[t], token: k === undefined ? undefined : r.tokens[k] }), `create user ${u} in target ${t}${k === undefined ? '' : ` with token ${k}`}`),
    ),
    fc.tuple(who, where, token).map(([u, t, k]) => step((r) => ({ kind: 'update', username: r.names[u], target: r.targets[t], token: r.tokens[k] }), `update user ${u} in target ${t} with token ${k}`)),
    fc.tuple(who, where).map(([u, t]) => step((r) => ({ kind: 'delete', username: r.names[u], target: r.targets[t] }), `delete user ${u} from target ${t}`)),
  ];
}
