/**
 * How the exchange-session suite reads what the document leaves open where the profile does not say: the login forms
 * it tries (the profile's alone where it states them), a nonce range as the current day of some time zone, the
 * midnight that ends the day as either side of the range, and an order record in any listed reading's names.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { describeForm, loginForms, rememberForm } from '../../suites/exchange-session/forms.ts';
import { dayOf, dayOfSomeZone, NonceModel } from '../../suites/exchange-session/model.ts';
import { statusesOf } from '../../suites/exchange-session/records.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { knowStatedSettings } from '../../suites/exchange-session/stated.ts';

const defaults = () => Value.Default(exchangeSessionEntry().properties.settings, {}) as ExchangeSessionSettings;
/** A profile that states exactly these settings (dotted paths). */
const stating = (...settings: string[]) => knowStatedSettings((s) => settings.includes(s));

afterEach(() => knowStatedSettings(() => true));

describe('login forms', () => {
  test('a profile that states nothing: every listed ECDSA encoding with both payload texts, its own first', () => {
    stating();
    const forms = loginForms(defaults(), 'ecdsa', 'http://a.example').map((f) => describeForm(f, 'ecdsa'));
    assert.equal(forms.length, 6);
    assert.equal(forms[0], 'der base64, compact JSON');
    assert.ok(forms.includes('compact hex, spaced JSON'));
  });

  test('a profile that states the signature: that form alone', () => {
    stating('ecdsaSignature', 'ecdsaSignature.format', 'ecdsaSignature.encoding', 'ecdsaSignature.payloadJson', 'hmacSignature.hash', 'hmacSignature.secretEncoding');
    assert.equal(loginForms(defaults(), 'ecdsa', 'http://b.example').length, 1);
    assert.equal(loginForms(defaults(), 'hmac', 'http://b.example').length, 1);
  });

  test('the form a target accepted is tried first from then on', () => {
    stating();
    const forms = loginForms(defaults(), 'hmac', 'http://c.example');
    rememberForm('http://c.example', 'hmac', forms[3]);
    const again = loginForms(defaults(), 'hmac', 'http://c.example');
    assert.equal(describeForm(again[0], 'hmac'), describeForm(forms[3], 'hmac'));
    assert.equal(again.length, forms.length);
  });
});

describe('the current day', () => {
  const at = new Date('2026-03-10T12:00:00Z');

  test('any zone\'s current day, with either upper bound, is a day; yesterday, milliseconds and a half day are not', () => {
    for (const zone of ['UTC', 'Asia/Hong_Kong', 'Asia/Kathmandu', 'America/New_York']) {
      const day = dayOf(at, zone);
      assert.deepEqual(dayOfSomeZone(day.start, day.end - 1n, at), day, zone);
      assert.deepEqual(dayOfSomeZone(day.start, day.end, at), day, zone);
    }
    const utc = dayOf(at, 'UTC');
    const yesterday = dayOf(new Date(at.getTime() - 86_400_000), 'UTC');
    assert.equal(dayOfSomeZone(yesterday.start, yesterday.end - 1n, at), undefined);
    assert.equal(dayOfSomeZone(utc.start / 1000n, (utc.end - 1n) / 1000n, at), undefined);
    assert.equal(dayOfSomeZone(utc.start, utc.start + 43_200_000_000n, at), undefined);
  });

  test('the midnight that ends the day may be accepted or refused; beyond it is out of range', () => {
    const day = dayOf(at, 'UTC');
    const m = new NonceModel(day.start, day.end - 1n);
    assert.equal(m.judge(day.end).expect, 'either');
    assert.deepEqual(m.judge(day.end + 1n), { expect: 'refused', requirement: 'A-NONCE-IN-RANGE', why: `${day.end + 1n} lies outside [${day.start}, ${day.end}]` });
    // Refused, it was out of range: a later fresh nonce below it must still be accepted.
    m.record(day.end, false);
    assert.equal(m.judge(day.start + 5n).expect, 'accepted');
  });
});

describe('order records', () => {
  test('unstated status values: the profile\'s and every listed reading\'s; stated: the profile\'s alone', () => {
    stating();
    const open = statusesOf(defaults()).open;
    assert.deepEqual(open, ['OPEN', 'NEW', 'PARTIALLY_FILLED']);
    stating('orderRecord.statuses.open');
    assert.deepEqual(statusesOf(defaults()).open, ['OPEN']);
  });
});
