import { notCountedBecause, type RequirementResult, type RunSummary } from './summary.ts';

const xml = (s: unknown) =>
  String(s ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * JUnit XML with one test case per requirement, for CI test views: a failure is exactly what the exit code counts;
 * a should that failed in a non-strict run, an advisory's flag, a requirement not tested or not applicable are skipped
 * with their reason; an inconclusive requirement that counts is an error (the run could not decide it).
 */
export function renderRequirementsJunit(s: RunSummary): string {
  const suites = s.interfaces.map((i) => {
    const cases = i.requirements.map((r) => testCase(i.name, r, s.strict));
    const failures = i.requirements.filter((r) => r.status === 'failed' && r.counted).length;
    const errors = i.requirements.filter((r) => r.status === 'inconclusive' && r.counted).length;
    const skipped = i.requirements.length - failures - errors - i.requirements.filter((r) => r.status === 'passed').length;
    return `  <testsuite name="${xml(i.name)}" tests="${i.requirements.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" timestamp="${xml(s.startedAt)}">
    <properties><property name="profile" value="${xml(s.profile.name)}"/><property name="run" value="${xml(s.runId)}"/><property name="seed" value="${s.seed}"/><property name="depth" value="${xml(s.depth)}"/><property name="strict" value="${s.strict}"/><property name="spec" value="${xml(i.spec.file)} ${xml(i.spec.sha256)}"/><property name="harness" value="${xml(s.harness.version)}${s.harness.commit ? ` ${xml(s.harness.commit)}` : ''}"/><property name="target" value="${xml(i.target?.baseUrl)}"/></properties>
${cases.join('\n')}
  </testsuite>`;
  });
  // An expired waiver fails the run by the gate's own rule: its own failing case, so that the file agrees with the exit code.
  const expired = s.gate?.expiredWaivers ?? [];
  if (expired.length) {
    const cases = expired.map(
      (w) =>
        `    <testcase classname="gate" name="${xml(`waiver for ${w.requirement} expired`)}"><failure message="${xml(`the waiver for ${w.requirement} expired on ${w.expires} (accepted by ${w.acceptedBy}): renew it or remove it`)}">${xml(w.reason)}</failure></testcase>`,
    );
    suites.push(`  <testsuite name="gate" tests="${expired.length}" failures="${expired.length}" errors="0" skipped="0" timestamp="${xml(s.startedAt)}">\n${cases.join('\n')}\n  </testsuite>`);
  }
  const tests = s.interfaces.reduce((n, i) => n + i.requirements.length, 0) + expired.length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="conformance ${xml(s.profile.name)}" tests="${tests}" failures="${s.failedCounted.length + expired.length}" errors="${s.inconclusiveCounted.length}">
${suites.join('\n')}
</testsuites>
`;
}

function testCase(interfaceName: string, r: RequirementResult, strict: boolean): string {
  const head = `    <testcase classname="${xml(interfaceName)}" name="${xml(`${r.id} (${r.level}): ${r.text}`)}">`;
  const why = r.message ?? '';
  let body = '';
  if (r.status === 'failed' && r.counted) {
    const detail = r.failures.map((f) => `${f.test}\n${f.message}\nreplay: ${f.replay}`).join('\n\n');
    body = `<failure message="${xml(why.split('\n')[0])}">${xml(detail)}</failure>`;
  } else if (r.status === 'failed') {
    const notCounted = r.knockOnOf?.length ? `${r.level} failed, not counted (a knock-on of ${r.knockOnOf.join(', ')})` : `${r.level} failed, not counted (${notCountedBecause(r, strict) ?? 'set aside'})`;
    body = `<skipped message="${xml(`${notCounted}: ${why.split('\n')[0]}`)}"/>`;
  } else if (r.status === 'inconclusive' && r.counted) {
    body = `<error message="${xml(`inconclusive: ${why.split('\n')[0]}`)}"/>`;
  } else if (r.status !== 'passed') {
    body = `<skipped message="${xml(`${r.status}: ${why}`)}"/>`;
  }
  return body ? `${head}${body}</testcase>` : `${head}</testcase>`;
}
