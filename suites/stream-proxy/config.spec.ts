import fc from 'fast-check';
import type { RequirementId } from '../../generated/stream-proxy.ts';
import type { Reply } from '../../harness/http/client.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { groupOf, loadSpec } from '../../harness/spec/load.ts';
import { depthFactor } from '../../harness/options.ts';
import { commandProperty, type Step } from '../../harness/stateful.ts';
import { RevisionModel, type Doc, type IfMatch, type SaveExpectation } from './model.ts';
import { revisionEncoding } from './documents.ts';
import { getAt, setAt } from '../../harness/json-pointer.ts';
import { DOCS, REVISION_HEADER, revisionOf, scratchMember, test, reqTags, deviation, NotTested, Inconclusive, RequirementViolation, type Proxy, type RecordReading, type Snapshot } from './proxy.ts';
import { guard, type Guard } from './config-guard.ts';
import { accepted, answered, isAccepted, judged, mustAnswer, showed } from '../../harness/answers.ts';
import { beforeJudging } from './before-judging.ts';
import { runScoped } from '../../harness/run-scoped.ts';

/** The configuration saves' requirements (a group of the spec) but the concurrent saves, which a test of their own judges. */
const SAVES = groupOf<RequirementId>(loadSpec('stream-proxy'), 'config-saves').filter((id) => id !== 'B-CONFIG-CONCURRENT');
const REVISION_CASES = 100;
const CLIENTS = 2;

/** What the merged read shows of the revision headers' open points: their encoding, and whether it sets all three. */
function recordRevisionReadings(config: Reply, reading: RecordReading): void {
  const main = revisionOf(config, 'main');
  if (!main) return;
  const encoding = revisionEncoding(main);
  reading('B-NS-REVISION-ENCODING', encoding, encoding ? undefined : `revisions like ${JSON.stringify(main.slice(0, 80))}`);
  reading('B-NS-CONFIG-API-PROXY-REVISION', revisionOf(config, 'apiProxy') ? 'all-three' : 'main-and-sources');
}

function needRevisions(s: Snapshot): Record<Doc, string> {
  for (const doc of DOCS) if (!s.revision[doc]) throw new Inconclusive(`the ${doc} document's revision header (${REVISION_HEADER[doc]}) is missing: the revision checks cannot start (B-CONFIG-READ and B-APIPROXY-READ judge that)`);
  return s.revision as Record<Doc, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why the harness cannot edit the documents, or undefined: the checks of saves then leave their requirements not
 * tested rather than judge what the profile does not state. Each document must be where the profile points in
 * GET /api/v1/config (B-NS-CONFIG-SPLIT); a save of it as read must be accepted, unless the profile states what a save
 * needs beyond the document (B-NS-EXTRA-REQUEST-PARTS); and a save of its scratch member must be kept, unless the
 * profile names that member (B-NS-DTO-FIELDS). Anything else a save does wrong is left to the checks to judge.
 */
async function cannotEdit(proxy: Proxy, wrote: Guard, before: Snapshot): Promise<string | undefined> {
  const missing = DOCS.filter((d) => !isObject(before.content[d]));
  if (missing.length) {
    const where = missing.map((d) => `${d} at ${JSON.stringify(proxy.settings.documents[d].inConfig)}${proxy.stated(`documents.${d}.inConfig`) ? '' : ', the default'}`).join('; ');
    return `GET /api/v1/config holds no object where the harness looks for a document (${where}): where each document lies in it is not shown (B-NS-CONFIG-SPLIT); state it in ${missing.map((d) => `settings.documents.${d}.inConfig`).join(' and ')}`;
  }
  for (const doc of DOCS) {
    const save = async (edit: (content: unknown) => unknown, label: string) => {
      // With the document as a read shows it now: an earlier save (of it, or wrongly of another) may have moved it.
      const now = await proxy.read(`before: ${label}`);
      const body = edit(now.content[doc]);
      wrote.sending(doc, body);
      const r = await proxy.save(doc, { json: body }, now.revision[doc], label);
      // For the restore: a revision the harness's own save made, whatever the check then makes of the answer.
      if (isAccepted(r) && revisionOf(r, doc)) wrote.wrote(doc, revisionOf(r, doc)!);
      return r;
    };
    if (!proxy.stated('extras')) {
      const control = await save((content) => content, `save ${doc} as read, with its revision (the control)`);
      const open = proxy.refusalOpen(control);
      if (open) return `a save of ${doc} as read, with its current revision, was ${open}`;
      // Refused for a reason the profile states (or throttled, thrown): the checks judge it.
      if (!accepted(control, `save ${doc} as read (the control)`)) return undefined;
    }
    const setting = `documents.${doc}.scratch`;
    if (proxy.stated(setting)) continue;
    const pointer = proxy.settings.documents[doc].scratch;
    const value = freshScratch('conformance-probe');
    const r = await save((content) => setAt(content, pointer, value), `save ${doc} with ${pointer} set (is the member kept?)`);
    const open = proxy.refusalOpen(r, { control: true, open: [scratchMember(setting, pointer)] });
    if (open) return `a save of ${doc} setting ${pointer}, with its current revision, was ${open}`;
    if (!accepted(r, `save ${doc} with ${pointer} set`)) return undefined;
    // Dropped: the save was kept (the revision it answered is the one read back), but not the member.
    const back = await proxy.read(`after ${doc} was saved with ${pointer} set`);
    if (back.revision[doc] === revisionOf(r, doc) && getAt(back.content[doc], pointer) !== value) {
      return `a save of ${doc} setting ${pointer} was answered 200, but ${doc} reads back without it: the target may drop members it does not know (B-NS-DTO-FIELDS); state one it knows in settings.${setting}`;
    }
  }
  return undefined;
}

const scratchCounter = runScoped(() => ({ count: 0 }));
const freshScratch = (name: string) => `${name}-${++scratchCounter().count}`;

test.describe('configuration documents and their revisions', () => {
  test('GET /api/v1/config and GET /api/v1/config/apiproxy carry the revision headers', { tag: reqTags('B-CONFIG-READ', 'B-APIPROXY-READ') }, async ({ stream: proxy, verify, reading }) => {
    // The reads themselves are what these rules judge: a refusal breaks them, a throttle or a server error decides nothing.
    await verify('B-CONFIG-READ', async () => {
      const config = await proxy.admin({ method: 'GET', path: '/api/v1/config', label: 'the merged configuration' });
      if (showed(config, 200)) recordRevisionReadings(config, reading);
      mustAnswer(config, 200, 'GET /api/v1/config', { expected: '200 with one JSON object merging the three documents' });
      const missing = ['main', 'sources'].filter((d) => !revisionOf(config, d as Doc));
      if (!config.json || typeof config.json !== 'object' || Array.isArray(config.json)) throw deviation('GET /api/v1/config is not one JSON object', 'one JSON object merging the three documents', [config.exchange]);
      if (missing.length) throw new RequirementViolation('B-CONFIG-READ', `GET /api/v1/config has no ${missing.map((d) => REVISION_HEADER[d as Doc]).join(' nor ')}`, 'x-config-main-revision and x-config-sources-revision', [config.exchange]);
    });
    await verify('B-APIPROXY-READ', async () => {
      const apiProxy = await proxy.admin({ method: 'GET', path: '/api/v1/config/apiproxy', label: 'the api-proxy document' });
      mustAnswer(apiProxy, 200, 'GET /api/v1/config/apiproxy', { expected: '200 with the api-proxy document' });
      if (!apiProxy.json || typeof apiProxy.json !== 'object') throw deviation('GET /api/v1/config/apiproxy is not a JSON object', 'the api-proxy document', [apiProxy.exchange]);
      if (!revisionOf(apiProxy, 'apiProxy')) throw new RequirementViolation('B-APIPROXY-READ', 'GET /api/v1/config/apiproxy has no x-config-api-proxy-revision', 'x-config-api-proxy-revision', [apiProxy.exchange]);
    });
  });

  test('revisions, model-based property: clients read, edit and save with current, stale, missing and malformed If-Match', { tag: reqTags(...SAVES) }, async ({ stream: proxy, property, notApplicable, notTested, writes, identity, profile, target, reading, recorder, api }, testInfo) => {
    const ids = SAVES.filter((id) => !proxy.scope.requirements[id]);
    for (const id of SAVES) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
    if (ids.length === 0) return;
    fitTimeout(testInfo, { requests: REVISION_CASES * depthFactor() * 14 * 2 }, profile, !target.reference);
    // The lease, the first read and the controls judge nothing: what stops them (a throttle, an outage) leaves the saves undecided.
    const ready = await beforeJudging(ids, { recorder, api, what: 'before the revision property' }, async () => {
      await proxy.exclusive();
      const before = await proxy.read('before the property');
      needRevisions(before);
      const wrote = guard(proxy, writes, before);
      return { wrote, cannot: await cannotEdit(proxy, wrote, before) };
    });
    if (!ready) return;
    const { wrote, cannot } = ready;
    if (cannot) return ids.forEach((id) => notTested(id, cannot));
    const tag = identity.name('scratch');
    await property(
      commandProperty<RevisionModel, Real>({
        id: 'stream-proxy-revisions',
        requirements: ids,
        runs: REVISION_CASES,
        steps: revisionSteps(),
        maxSteps: 10,
        setup: async () => {
          // Each case starts from what the target holds now (earlier cases saved over it): one fresh read.
          const s = await proxy.read('start of a case');
          const revision = needRevisions(s);
          const scratch = Object.fromEntries(DOCS.map((d) => [d, getAt(s.content[d], proxy.settings.documents[d].scratch)])) as Record<Doc, unknown>;
          const copies = Array.from({ length: CLIENTS }, () => structuredClone(s.content));
          return { model: new RevisionModel(revision, scratch, CLIENTS), real: { proxy, copies, wrote, tag, reading } };
        },
      }),
    );
  });

  test('of several saves sent at once with the same revision, exactly one wins', { tag: reqTags('B-CONFIG-CONCURRENT') }, async ({ stream: proxy, verify, notApplicable, writes, identity }) => {
    if (proxy.scope.requirements['B-CONFIG-CONCURRENT']) return notApplicable('B-CONFIG-CONCURRENT', proxy.scope.requirements['B-CONFIG-CONCURRENT']);
    const doc: Doc = 'main';
    const pointer = proxy.settings.documents[doc].scratch;
    await verify('B-CONFIG-CONCURRENT', async () => {
      // Inside the check: a lease or a read that meets trouble leaves this rule undecided, never the test broken.
      await proxy.exclusive();
      const before = await proxy.read('before the concurrent saves');
      needRevisions(before);
      const wrote = guard(proxy, writes, before);
      const cannot = await cannotEdit(proxy, wrote, before);
      if (cannot) throw new NotTested(cannot);
      for (let round = 0; round < 3; round++) {
        const s = await proxy.read(`round ${round + 1}`);
        const revision = s.revision[doc]!;
        const values = [0, 1, 2, 3].map((i) => `${identity.name('race')}-${i}`);
        const bodies = values.map((v) => setAt(s.content[doc], pointer, v));
        bodies.forEach((b) => wrote.sending(doc, b));
        const replies = await Promise.all(bodies.map((b, i) => proxy.save(doc, { json: b }, revision, `save ${doc}, client ${i + 1} of 4 at once`)));
        // For the restore first: every revision the harness's saves made.
        replies.forEach((r) => isAccepted(r) && revisionOf(r, doc) && wrote.wrote(doc, revisionOf(r, doc)!));
        // A throttled or failing save decides nothing about which one won.
        replies.forEach((r, i) => judged(r, `save ${doc}, client ${i + 1} of 4 at once`));
        const won = replies.filter((r) => answered(r, 200)).length;
        const lost = replies.filter((r) => answered(r, 409)).length;
        if (won !== 1 || lost !== 3) {
          throw new RequirementViolation('B-CONFIG-CONCURRENT', `4 saves of ${doc} sent at once with revision ${revision} were answered ${replies.map((r) => r.status).join(', ')}`, 'one 200 and three 409', replies.map((r) => r.exchange));
        }
        const winner = values[replies.findIndex((r) => answered(r, 200))];
        const after = await proxy.read(`round ${round + 1}, after`);
        if (getAt(after.content[doc], pointer) !== winner) {
          throw new RequirementViolation('B-CONFIG-CONCURRENT', `the save answered 200 set ${pointer} to ${winner}, but the document now holds ${JSON.stringify(getAt(after.content[doc], pointer))}`, 'the winner\'s content', [...replies.map((r) => r.exchange), after.replies[0].exchange]);
        }
      }
    });
  });
});

interface Real {
  proxy: Proxy;
  /** Each client's copy of the documents, as it last read them. */
  copies: Array<Record<Doc, unknown>>;
  wrote: Guard;
  tag: string;
  reading: RecordReading;
}

type RevisionStep = Step<RevisionModel, Real>;

function revisionSteps(): Array<fc.Arbitrary<RevisionStep>> {
  const client = fc.integer({ min: 0, max: CLIENTS - 1 });
  const doc = fc.constantFrom<Doc>(...DOCS);

  const read = (c: number): RevisionStep => ({
    describe: () => `client ${c + 1} reads`,
    testing: ['B-CONFIG-SAVE'],
    applies: () => true,
    run: async (m, r, saw) => {
      const s = await r.proxy.read(`client ${c + 1} reads`);
      for (const d of DOCS) {
        const now = s.revision[d];
        const scratch = getAt(s.content[d], r.proxy.settings.documents[d].scratch);
        // Every save was verified when it was made: a read that disagrees now shows a save that did not last.
        if (now !== m.revision[d] || JSON.stringify(scratch) !== JSON.stringify(m.scratch[d])) {
          throw new RequirementViolation('B-CONFIG-SAVE', `${d} reads back at revision ${now} with ${JSON.stringify(scratch)}; the last saves left it at ${m.revision[d]} with ${JSON.stringify(m.scratch[d])}`, 'the revision and content the last successful save gave it', s.replies.map((x) => x.exchange));
        }
      }
      m.read(c, s.revision as Record<Doc, string>);
      r.copies[c] = structuredClone(s.content);
    },
  });

  const save = (c: number, d: Doc, ifMatch: IfMatch, brokenBody: boolean, sameContent: boolean): RevisionStep => ({
    describe: () => `client ${c + 1} saves ${d} ${brokenBody ? 'with a body that is not JSON' : sameContent ? 'unchanged' : 'with a new value'}, If-Match ${ifMatch}`,
    testing: SAVES,
    applies: () => true,
    run: async (m, r, saw) => {
      const pointer = r.proxy.settings.documents[d].scratch;
      const value = sameContent ? getAt(r.copies[c][d], pointer) : freshScratch(r.tag);
      const body = setAt(r.copies[c][d], pointer, value);
      const header = ifMatch === 'as-read' ? m.seen[c][d] : ifMatch === 'malformed' ? 'not-a-revision' : undefined;
      const e = m.expectSave(c, d, ifMatch, !brokenBody);
      if (!brokenBody) r.wrote.sending(d, body);
      const reply = await r.proxy.save(d, brokenBody ? { raw: '{"broken": ' } : { json: body }, header, `client ${c + 1} saves ${d}`);
      // For the restore first: a revision the harness's save made, whatever the model makes of the answer.
      if (isAccepted(reply) && revisionOf(reply, d)) r.wrote.wrote(d, revisionOf(reply, d)!);
      // The model names the statuses and the rule; a throttle or a server error decides nothing (thrown).
      mustAnswer(reply, e.statuses, e.why, { rule: e.requirement });
      recordRefusalReadings(r.reading, e, ifMatch, brokenBody, reply);
      if (!answered(reply, 200)) {
        // "409 changed on server", "428 If-Match missing", "400 validation failed": a refused save changes nothing.
        await expectUnchanged(m, r, e.requirement, `after ${e.why} was refused (${reply.status})`, reply);
        saw(e.requirement);
        return;
      }
      const revision = revisionOf(reply, d);
      if (!revision) throw new RequirementViolation('B-CONFIG-SAVE', `the save of ${d} was answered 200 without ${REVISION_HEADER[d]}`, `200 with a new ${REVISION_HEADER[d]}`, [reply.exchange]);
      const changed = JSON.stringify(value) !== JSON.stringify(m.scratch[d]);
      if (changed && revision === m.revision[d]) {
        throw new RequirementViolation('B-CONFIG-REVISION-CHANGE', `the save changed ${pointer} of ${d} to ${JSON.stringify(value)}, but its revision stayed ${revision}`, 'a new revision', [reply.exchange]);
      }
      if (changed) saw('B-CONFIG-REVISION-CHANGE');
      // Read back at once, so that a save that did not do what it said is caught here and the model never drifts.
      const s = await r.proxy.read(`after client ${c + 1} saved ${d}`);
      const now = getAt(s.content[d], pointer);
      if (s.revision[d] !== revision || JSON.stringify(now) !== JSON.stringify(value)) {
        throw new RequirementViolation('B-CONFIG-SAVE', `the save of ${d} answered 200 with revision ${revision}; a read right after shows revision ${s.revision[d]} and ${pointer} ${JSON.stringify(now)}`, `revision ${revision} and ${JSON.stringify(value)}`, [reply.exchange, ...s.replies.map((x) => x.exchange)]);
      }
      saw('B-CONFIG-SAVE');
      for (const other of DOCS.filter((x) => x !== d)) {
        if (s.revision[other] !== m.revision[other]) {
          throw new RequirementViolation('B-CONFIG-DOCS-INDEPENDENT', `saving ${d} moved the ${other} revision from ${m.revision[other]} to ${s.revision[other]}`, `${other} unchanged`, [reply.exchange, ...s.replies.map((x) => x.exchange)]);
        }
      }
      saw('B-CONFIG-DOCS-INDEPENDENT');
      m.saved(c, d, revision, value);
      r.copies[c][d] = body;
    },
  });

  /** What a refused save shows of the open points of refusals: which refusal wins, and how an If-Match that is no revision is answered. */
  const recordRefusalReadings = (reading: RecordReading, e: SaveExpectation, ifMatch: IfMatch, brokenBody: boolean, reply: Reply) => {
    if (e.revisionRefusal && !e.revisionRefusal.includes(400)) reading('B-NS-CHECK-ORDER', showed(reply, 400) ? 'body-first' : 'revision-first');
    if (ifMatch === 'malformed' && !brokenBody) {
      if (showed(reply, 400)) reading('B-NS-IF-MATCH-FORMS', 'malformed-400');
      else if (showed(reply, 409)) reading('B-NS-IF-MATCH-FORMS', 'mismatch-409');
      else reading('B-NS-IF-MATCH-FORMS', undefined, `an If-Match that is no revision was answered ${reply.status}`);
    }
  };

  /** After a refused save: every document as the model holds it. */
  const expectUnchanged = async (m: RevisionModel, r: Real, requirement: string, when: string, reply: Reply) => {
    const s = await r.proxy.read(when);
    for (const d of DOCS) {
      const scratch = getAt(s.content[d], r.proxy.settings.documents[d].scratch);
      if (s.revision[d] !== m.revision[d] || JSON.stringify(scratch) !== JSON.stringify(m.scratch[d])) {
        throw new RequirementViolation(requirement, `${when}, ${d} is at revision ${s.revision[d]} with ${JSON.stringify(scratch)}`, `unchanged: revision ${m.revision[d]} with ${JSON.stringify(m.scratch[d])}`, [reply.exchange, ...s.replies.map((x) => x.exchange)]);
      }
    }
  };

  return [
    client.map(read),
    fc.tuple(client, doc, fc.boolean()).map(([c, d, same]) => save(c, d, 'as-read', false, same)),
    fc.tuple(client, doc).map(([c, d]) => save(c, d, 'as-read', false, false)),
    fc.tuple(client, doc).map(([c, d]) => save(c, d, 'none', false, false)),
    fc.tuple(client, doc).map(([c, d]) => save(c, d, 'malformed', false, false)),
    fc.tuple(client, doc).map(([c, d]) => save(c, d, 'as-read', true, false)),
  ];
}

export { NotTested };
