/**
 * The balances the document's reads show: the account assets show the unified account (uta) per coin, the funding
 * assets the funding account (settings.balances.fundingType, U-NS-FUNDING-ACCOUNT). Their member names are not shown
 * (U-NS-RECORD-MEMBERS): the row of a coin is the object naming the coin in any member, and what is available is the
 * member settings.balances.available names.
 */
import type { Client, Reply } from '../../harness/http/client.ts';
import type { LoadedSpec } from '../../harness/spec/types.ts';
import { answerKind, describeAnswer } from '../../harness/answers.ts';
import { servedOp, withQuery, type Settings } from './requests.ts';

export type BalanceRead = { amount: number; unit: number; reply: Reply } | { unreadable: string; reply: Reply };

/** The read that shows an account type, if one does. */
export function readOf(s: Settings, type: string): 'assets' | 'funding' | undefined {
  if (type === 'uta') return 'assets';
  return type === s.balances.fundingType ? 'funding' : undefined;
}

/** The rows naming `coin` anywhere in a JSON value. */
function rowsNaming(v: unknown, coin: string, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (!v || typeof v !== 'object') return out;
  if (!Array.isArray(v) && Object.values(v).includes(coin)) out.push(v as Record<string, unknown>);
  for (const child of Object.values(v)) rowsNaming(child, coin, out);
  return out;
}

/** One unit of the last decimal place a decimal string shows ("12.50" -> 0.01). */
const lastPlace = (text: string) => 10 ** -((text.split('.')[1] ?? '').length);

/**
 * What a read answer shows available of a coin: a row without the coin is none of it. Any answer but an acceptance
 * shows nothing (its reader says what that means: a throttle is no reason to think the type holds nothing).
 */
export function balanceIn(reply: Reply, coin: string, member: string, what: string): BalanceRead {
  if (answerKind(reply) === 'accepted') return balanceOf(reply, coin, member, what);
  return { unreadable: `${what} was answered ${describeAnswer(reply)}`, reply };
}

function balanceOf(reply: Reply, coin: string, member: string, what: string): BalanceRead {
  const data = (reply.json as { data?: unknown } | undefined)?.data ?? reply.json;
  const rows = rowsNaming(data, coin);
  if (rows.length === 0) return { amount: 0, unit: 0, reply };
  const withMember = rows.filter((r) => member in r);
  if (withMember.length !== 1) {
    return { unreadable: `${what}: ${withMember.length === 0 ? `the row of ${coin} carries no member ${member}` : `${withMember.length} rows of ${coin} carry ${member}`} (settings.balances.available names it)`, reply };
  }
  const value = withMember[0]![member];
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  const amount = text === '' ? NaN : Number(text);
  if (!Number.isFinite(amount)) return { unreadable: `${what}: ${member} of ${coin} is ${JSON.stringify(value)}, not a decimal`, reply };
  return { amount, unit: lastPlace(text), reply };
}

/** Reads what an account type shows available of a coin, with the credential given. */
export async function readBalance(api: Client, spec: LoadedSpec, s: Settings, type: string, coin: string, credential: string, label: string): Promise<BalanceRead> {
  const read = readOf(s, type);
  if (!read) throw new Error(`harness: no read shows the account type ${type}`);
  const op = servedOp(spec, read === 'assets' ? 'getAccountAssets' : 'getFundingAssets');
  const path = read === 'assets' ? op.path : withQuery(op.path, { coin });
  const reply = await api.send({ method: 'GET', path, authenticate: true, credential, label });
  return balanceIn(reply, coin, s.balances.available[read], read === 'assets' ? 'the account assets' : 'the funding assets');
}
