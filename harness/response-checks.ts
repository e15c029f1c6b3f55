/**
 * The generic response checks (GEN-SCHEMA, GEN-CONTENT-TYPE, GEN-HEADERS), judged from every exchange of a test once it
 * ends: each response was validated against the spec when it arrived.
 */
import type { Recorder } from './recorder.ts';
import type { LoadedSpec } from './spec/types.ts';

/**
 * Every response was validated against the spec when it arrived. A problem fails the generic requirement it belongs
 * to wherever it shows; a test tagged with a generic requirement records its pass only when a response it sent could
 * be held to that check (a documented status with a schema, a media type, headers).
 */
export function recordGenericResponseChecks(spec: LoadedSpec, recorder: Recorder, tags: string[]): void {
  const kinds = [
    ['SCHEMA', 'schema'],
    ['CONTENT-TYPE', 'contentType'],
    ['HEADERS', 'headers'],
  ] as const;
  for (const [suffix, key] of kinds) {
    const id = `${spec.prefix}-GEN-${suffix}`;
    if (!spec.requirements.some((r) => r.id === id)) continue;
    const bad = recorder.exchanges.filter((ex) => ex.problems?.[key].length);
    if (bad.length > 0) {
      recorder.fail([id], bad.flatMap((ex) => ex.problems![key]).slice(0, 5).join('\n'), bad);
    } else if (tags.includes(`@${id}`) && !recorder.judged(id)) {
      if (recorder.exchanges.some((ex) => ex.checked?.[key])) recorder.record(id, 'passed');
      else recorder.record(id, 'not-tested', `no response of this test had a documented status whose ${key === 'contentType' ? 'media type' : key} the spec gives`);
    }
  }
}
