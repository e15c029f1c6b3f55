/**
 * `npm run profile -- new` writes a template generated from the profile's schemas (harness/profile/template.ts): every
 * setting it leaves active is one the profile needs (required, with no default), and every optional one is commented
 * out with its description, so that no guess of ours is stated for a deployment (a stated setting is one the run
 * holds the target to: an active `onlinePlayers: 60` failed a correct bridge with 12 players online).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { ROOT } from '../../harness/paths.ts';
import { loadProfile } from '../../harness/profile/load.ts';
import { DEFINITIONS } from '../../interfaces/registry.ts';

type Schema = { properties?: Record<string, Schema>; required?: string[]; default?: unknown; type?: string };

const template = spawnSync(process.execPath, ['--import', 'tsx/esm', path.join(ROOT, 'scripts', 'profile.ts'), 'new'], { cwd: ROOT, encoding: 'utf8' });

/** The active settings the schema does not require, or gives a default: guesses, as dotted paths. */
function guesses(value: unknown, schema: Schema, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const s = schema.properties?.[key];
    if (!s) return [`${at}${key} (not a setting)`];
    if (!(schema.required ?? []).includes(key) || s.default !== undefined) return [`${at}${key}`];
    return s.type === 'object' ? guesses(v, s, `${at}${key}.`) : [];
  });
}

test('the profile template states no optional setting: each is commented out', () => {
  assert.equal(template.status, 0, template.stderr);
  const data = YAML.parse(template.stdout) as { interfaces: Record<string, { settings?: unknown }> };
  for (const d of DEFINITIONS) {
    const entry = data.interfaces[d.name];
    assert.ok(entry, `${d.name} is in the template`);
    const schema = (d.profileSchema() as unknown as Schema).properties!.settings!;
    assert.deepEqual(guesses(entry.settings, schema, `${d.name}.`), [], `${d.name}: optional settings written active`);
  }
});

test('every setting is in the template, described: what is not active is commented out under its interface', () => {
  for (const d of DEFINITIONS) {
    const schema = (d.profileSchema() as unknown as Schema).properties!.settings! as Schema & { properties: Record<string, Schema & { description?: string }> };
    for (const [key, s] of Object.entries(schema.properties)) {
      if (key === 'extras') continue;
      assert.ok(s.description, `${d.name}.settings.${key} has a description`);
      assert.match(template.stdout, new RegExp(`^ +(# )?${key}:`, 'm'), `${d.name}.settings.${key} in the template`);
      assert.ok(template.stdout.includes(s.description), `${d.name}.settings.${key}: its description in the template`);
    }
  }
});

test('the profile template is a valid profile once read, with nothing stated but what it needs', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-template-'));
  try {
    const file = path.join(dir, 'my-target.yaml');
    writeFileSync(file, template.stdout);
    const profile = loadProfile(file);
    for (const d of DEFINITIONS) assert.ok(profile.interfaces[d.name], d.name);
    assert.equal(profile.writes, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
