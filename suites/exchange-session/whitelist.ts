/**
 * A-LOGIN-WHITELIST against a live target, where the harness cannot send from inside the excluded key's whitelist:
 * the only control it has is another key, so a refusal of the excluded key's own login may as well be a wrong
 * credential of ours (a secret mistyped in the profile) as the whitelist enforced.
 *
 * What tells the two apart is what each refusal is answered, and the document says nothing of it ("Success is HTTP
 * 200. Error codes and error body shape: not shown"; A-NS-LOGIN-REFUSAL-STATUS): a deployment may answer 403 outside
 * the whitelist and 401 for a bad signature, or 401 to both. So the harness asks the target itself: the same key's
 * login signed with a secret nobody has (a wrong signature for certain), before and after the key's own. The key's
 * own refusal counts only where its status differs from what the wrong signature got both times: then the target
 * took the key's own signature as good and refused the login for something else. The same status (a deployment that
 * answers every refused login alike, one that checks the address first, or our secret is wrong) cannot tell them
 * apart: inconclusive. Bodies are not compared: the document shows none, and a request id in them would tell apart
 * what is the same.
 */
import { answered, refused } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';

export type WhitelistReading = { counts: true } | { counts: false; why: string };

/**
 * Whether the refusal `own` of an excluded key's correctly signed login counts for A-LOGIN-WHITELIST, beside the same
 * login signed wrong before and after it (`wrong`). Every reply must be a refusal already judged (mustBeRefused): an
 * answer that decides nothing is thrown here too.
 */
export function excludedKeyRefusal(own: Reply, wrong: readonly [Reply, Reply], key: string): WhitelistReading {
  const [before, after] = wrong;
  for (const r of [own, before, after]) if (!refused(r, r.exchange.label ?? `a login with ${key}`)) throw new Error(`harness: ${r.exchange.label ?? 'a login'} was accepted; judge it (mustBeRefused) before asking whether its refusal counts`);
  if (!answered(after, before.status)) {
    return { counts: false, why: `the same wrongly signed login with ${key} was answered ${before.status}, then ${after.status}: the target's answers to it change (a lockout, a limit), so no answer of it tells a wrong signature apart` };
  }
  if (answered(own, before.status)) {
    return {
      counts: false,
      why: `the login with ${key}, whose whitelist leaves this machine out, was refused ${own.status}, as the same login signed with a secret nobody has: the document does not say what either refusal is answered, and this target answers them alike, so the refusal may be of a wrong credential in the profile as well as of the whitelist`,
    };
  }
  return { counts: true };
}
