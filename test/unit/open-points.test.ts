import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpec } from '../../harness/spec/load.ts';
import { openPointProblems, settingProblems } from '../../harness/spec/open-points.ts';
import { applyReadings, deepMerge, parseReadings } from '../../harness/readings.ts';
import { readingSwitch } from '../../mocks/readings.ts';
import { CATALOGUES } from '../../scripts/interfaces.ts';

const specText = (points: string) => `openapi: 3.1.0
info: { title: t, version: '1' }
x-requirement-prefix: Z
x-requirements:
  - { id: Z-ONE, level: must, text: one, source: one }
paths: {}
x-not-shown:
${points}`;

const spec = (points: string) => buildSpec(`open-points-test-${Math.random()}`, specText(points), 'test.yaml');
const twoReadings = `    readings: [{ id: first, text: the first }, { id: second, text: the second }]
    requirements: [Z-ONE]`;

test('an open point with two readings in the spec and in its reference passes the lint', () => {
  const s = spec(`  - id: Z-NS-POINT\n    text: t\n    source: s\n${twoReadings}\n  - { id: Z-NS-HOOKS, text: t, source: s, observable: false, why: no receiver }`);
  assert.deepEqual(openPointProblems(s, [{ point: 'Z-NS-POINT', readings: [{ name: 'first' }, { name: 'second', reference: { x: 1 } }] }], ''), []);
});

test('the lint names an open point without readings, without requirements, or without a second reading in the reference', () => {
  const bare = spec(`  - { id: Z-NS-BARE, text: t, source: s }`);
  const problems = openPointProblems(bare, [], '');
  assert.ok(problems.some((p) => /Z-NS-BARE: lists 0 reading/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /Z-NS-BARE: names no requirement/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /Z-NS-BARE: the reference implements no reading/.test(p)), problems.join('\n'));
  const s = spec(`  - id: Z-NS-POINT\n    text: t\n    source: s\n${twoReadings}`);
  const one = openPointProblems(s, [{ point: 'Z-NS-POINT', readings: [{ name: 'first' }] } as never], '');
  assert.ok(one.some((p) => /implements 1 reading/.test(p)), one.join('\n'));
  const wrongDefault = openPointProblems(s, [{ point: 'Z-NS-POINT', readings: [{ name: 'second' }, { name: 'first', settings: {} }] }], '');
  assert.ok(wrongDefault.some((p) => /default reading is second/.test(p)), wrongDefault.join('\n'));
});

test('a reading the server must read itself is found in its code, or named', () => {
  const s = spec(`  - id: Z-NS-POINT\n    text: t\n    source: s\n${twoReadings}`);
  const catalogue = [{ point: 'Z-NS-POINT', readings: [{ name: 'first' }, { name: 'second' }] }] as const;
  assert.ok(openPointProblems(s, catalogue, 'nothing here').some((p) => /never names Z-NS-POINT/.test(p)));
  assert.deepEqual(openPointProblems(s, catalogue, "if (reading('Z-NS-POINT') === 'second')"), []);
  assert.ok(openPointProblems(s, [...catalogue, { point: 'Z-NS-GONE', readings: [{ name: 'a' }, { name: 'b' }] }], "'Z-NS-POINT'").some((p) => /Z-NS-GONE, which is not an open point/.test(p)));
});

test('an unobservable point says why, and has no readings in the reference', () => {
  const s = spec(`  - { id: Z-NS-HOOKS, text: t, source: s, observable: false }`);
  assert.ok(openPointProblems(s, [], '').some((p) => /says why/.test(p)));
});

test('readingSwitch gives the asked reading or the default, and refuses unknown points and readings', () => {
  const catalogue = [{ point: 'Z-NS-POINT', readings: [{ name: 'first' }, { name: 'second' }] }] as const;
  assert.equal(readingSwitch(catalogue, 'z', undefined)('Z-NS-POINT'), 'first');
  assert.equal(readingSwitch(catalogue, 'z', { 'Z-NS-POINT': 'second' })('Z-NS-POINT'), 'second');
  assert.throws(() => readingSwitch(catalogue, 'z', { 'Z-NS-OTHER': 'first' }), /unknown z open point/);
  assert.throws(() => readingSwitch(catalogue, 'z', { 'Z-NS-POINT': 'third' }), /no reading "third"/);
});

test('deepMerge merges objects member by member and replaces everything else', () => {
  assert.deepEqual(deepMerge({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 } }), { a: { b: 1, c: [2], e: 3 }, d: 1 });
});

test('--readings is parsed, and a reading of a live target or of an unknown point is refused', () => {
  assert.equal(parseReadings(CATALOGUES, ['other']), 'other');
  assert.throws(() => parseReadings(CATALOGUES, ['nonsense']), /write other, or <open point>=<reading>/);
  assert.throws(() => parseReadings(CATALOGUES, ['Q-NS-NOWHERE=x']), /no reference implements readings of Q-NS-NOWHERE/);
  const live = { interfaces: { chat: { baseUrl: 'http://x', settings: {} } } };
  assert.throws(() => applyReadings(CATALOGUES, live, [{ interfaceName: 'chat', point: 'E-NS-X', reading: 'a' }], ['chat']), /live target/);
});

test("an open point's setting must name a setting the profile entry has", () => {
  const s = spec(`  - id: Z-NS-POINT\n    text: t\n    source: s\n    setting: limits.max\n${twoReadings}\n  - id: Z-NS-OTHER\n    text: t\n    source: s\n    setting: paths.anything\n${twoReadings}`);
  const settings = { properties: { limits: { properties: { max: {} } }, paths: { patternProperties: { '^.*$': {} } } } };
  assert.deepEqual(settingProblems(s, settings), []);
  const missing = settingProblems(s, { properties: { limits: { properties: { min: {} } } } });
  assert.equal(missing.length, 2);
  assert.match(missing[0], /Z-NS-POINT: names settings\.limits\.max, which the profile entry of .* does not have/);
});
