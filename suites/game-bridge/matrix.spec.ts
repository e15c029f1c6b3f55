import { Inconclusive, NotTested } from '../../harness/fixtures.ts';
import { Undecided } from '../../harness/answers.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { TargetError } from '../../harness/http/client.ts';
import { depthFactor } from '../../harness/options.ts';
import { judge, keyControlOf, matrixScope, prepare, requirementsOf, send, testing } from './bridge.ts';
import { MATRIX_RUNS, requestCase, tableRows } from './cases.ts';
import { writesLogLine } from './model.ts';
import { statedReadings } from './stated.ts';

/** Every requirement the two tests below may give a verdict on (the profile decides which apply). */
const MATRIX = reqTags(
  'C-AUTH-401', 'C-AUTH-401-BODY', 'C-AUTH-KEY-EXACT', 'C-AUTH-HEADER-CASE', 'C-METHOD-405', 'C-ERROR-BODY', 'C-DISABLED-403',
  'C-STATUS-200', 'C-PLAYERS-200', 'C-INFO-BRIDGE',
  'C-LOG-200', 'C-LOG-400-MISSING', 'C-LOG-400-ONLY-ABSENT', 'C-LOG-NOT-JSON', 'C-LOG-CONTENT-TYPE-OPTIONAL', 'C-LOG-LEVEL-OPTIONAL', 'C-LOG-LEVEL-ANY',
  'C-GEN-SCHEMA', 'C-GEN-CONTENT-TYPE', 'C-GEN-NO-5XX',
);

test('error-code matrix, property: method, path, key, header-name spelling, body, switch', { tag: MATRIX }, async ({ api, secrets, profile, target, writes, property, notApplicable, reading }, testInfo) => {
  const settings = profile.interfaces['game-bridge']!.settings;
  const stated = statedReadings(profile);
  const scope = matrixScope(settings, writes.allowed);
  for (const [id, why] of scope.notApplicable) notApplicable(id, why);
  // Each requirement that fails reruns the property with it set aside: room for a few reruns.
  fitTimeout(testInfo, { requests: MATRIX_RUNS * depthFactor() * 3 }, profile, !target.reference);
  await property({
    id: 'game-bridge-matrix',
    requirements: scope.judged,
    // Without writes, cases a conforming bridge would answer with a console line are not drawn at all.
    arbitrary: writes.allowed ? requestCase : requestCase.filter((c) => !writesLogLine(prepare(c, secrets, settings, stated).model)),
    check: async (c, skip, saw) => {
      const p = prepare(c, secrets, settings, stated);
      // A throttle, a server error or a page that is not the API is thrown (Undecided): the property runner leaves what
      // the case was testing unsettled and goes on.
      const reply = await send(api, writes, c, p);
      const keyControl = keyControlOf(api, writes, c, secrets, settings, stated);
      (await judge(p.model, reply, { setAside: (id) => skip.has(id), reading, keyControl, undecided: (id, why) => saw(id, why) })).forEach((id) => saw(id));
    },
    testing: (c) => testing(prepare(c, secrets, settings, stated).model),
    runs: MATRIX_RUNS,
  });
});

// The property draws its cases at random; this sends every row of the tables whatever the seed. A row is sent within
// the verdict of each requirement it bears on, so that the evidence of a failure holds its exchange.
test('error-code matrix, table rows: every row, for each requirement it bears on', { tag: MATRIX }, async ({ api, secrets, profile, target, writes, verify, notApplicable, reading }, testInfo) => {
  const settings = profile.interfaces['game-bridge']!.settings;
  const stated = statedReadings(profile);
  const scope = matrixScope(settings, writes.allowed);
  for (const [id, why] of scope.notApplicable) notApplicable(id, why);
  const rows = tableRows()
    .map((c) => ({ c, p: prepare(c, secrets, settings, stated) }))
    .filter(({ p }) => writes.allowed || !writesLogLine(p.model));
  fitTimeout(testInfo, { requests: rows.length * 6 }, profile, !target.reference);
  for (const id of scope.judged) {
    const mine = rows.filter(({ p }) => requirementsOf(p.model).includes(id));
    if (mine.length === 0) continue; // judged by the property only (C-GEN-NO-5XX)
    await verify(id, async () => {
      let met = false;
      // Answers only one reading of an open point gives, which the profile does not state: why the rows say nothing.
      const open = new Set<string>();
      // Rows of this requirement's own that a throttle, a server error or a page that is not the API answered: they
      // decide nothing, and a pass of the rule would rest on the rows the trouble spared.
      const undecided: string[] = [];
      for (const { c, p } of mine) {
        let reply;
        try {
          reply = await send(api, writes, c, p);
        } catch (e) {
          // A row that gets no answer is evidence against what it was testing only; for another requirement it is
          // skipped, as long as the target answers everything else.
          if (e instanceof TargetError && e.kind !== 'given-up' && !testing(p.model).includes(id) && (await api.stillAnswers())) continue;
          throw e;
        }
        try {
          const ctx = {
            setAside: (other: string) => other !== id,
            reading,
            open: (other: string, why: string) => void (other === id && open.add(why)),
            keyControl: keyControlOf(api, writes, c, secrets, settings, stated),
            undecided: (other: string, why: string) => void (other === id && undecided.push(why)),
          };
          met = (await judge(p.model, reply, ctx)).includes(id) || met;
        } catch (e) {
          if (!(e instanceof Undecided)) throw e;
          if (testing(p.model).includes(id)) undecided.push(e.message);
        }
      }
      if (undecided.length) throw new Inconclusive(`${undecided.length} row(s) of ${id} got no answer of the bridge: ${undecided.slice(0, 3).join('; ')}${undecided.length > 3 ? '; …' : ''}`);
      if (!met) throw new NotTested(`no row of the tables reached the condition of ${id} against this profile${open.size ? `: ${[...open].join('; ')}` : ''}`);
    });
  }
});
