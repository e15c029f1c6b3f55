/**
 * npm run profile: `new` writes a commented profile for the interfaces asked, with the documents' defaults, that
 * `check` accepts; `check` names each wrong field of a bad one and lists what a profile makes not applicable.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { freshDir, script } from './helpers.ts';

describe('npm run profile', () => {
  test('new writes a profile for the interfaces asked that check accepts, listing what it makes not applicable', async () => {
    const made = await script('profile', ['new', '--interfaces', 'chat,game-bridge']);
    assert.equal(made.code, 0, made.out);
    const text = made.out.replace(/^npm warn.*\n/gm, '');
    assert.match(text, /# .*check/);
    const doc = YAML.parse(text) as { interfaces: Record<string, unknown> };
    assert.deepEqual(Object.keys(doc.interfaces), ['chat', 'game-bridge']);
    const file = path.join(freshDir('profile'), 'staging.yaml');
    writeFileSync(file, text);
    const checked = await script('profile', ['check', file]);
    assert.equal(checked.code, 0, checked.out);
    assert.match(checked.out, /profile my-target .* is valid; writes not allowed/);
    assert.match(checked.out, /game-bridge: https:\/\/game-bridge\.example\.invalid; \d+ of \d+ requirements not applicable/);
  });

  test('check names each wrong field; an unknown interface is refused', async () => {
    const file = path.join(freshDir('profile'), 'bad.yaml');
    writeFileSync(file, 'name: bad\ninterfaces:\n  chat:\n    baseUrl: https://x.invalid\n    settings: { windowSeconds: 60, maxRequests: 20 }\n');
    const [checked, unknown] = await Promise.all([script('profile', ['check', file]), script('profile', ['new', '--interfaces', 'chat,no-such'])]);
    assert.equal(checked.code, 2, checked.out);
    assert.match(checked.out, /interfaces\.chat\.settings\.windowSeconds: unknown field/);
    assert.equal(unknown.code, 2, unknown.out);
    assert.match(unknown.out, /unknown interface "no-such"/);
  });
});
