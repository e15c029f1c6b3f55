/**
 * Undoing what an interrupted run left in the write journal (npm run restore): the transfers, netted (here), and the
 * earn subscriptions and loans (fund-undo.ts). Only what the target acknowledged is recorded (appended once answered);
 * a write that may never have been made is left alone, since undoing it would move the account's own funds.
 */
import type { RestoreContext } from '../../harness/interface.ts';
import type { Client } from '../../harness/http/client.ts';
import { isAccepted } from '../../harness/answers.ts';
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';
import { restoreSubscriptionOrLoan, type EarnUndo, type LoanUndo } from './fund-undo.ts';

const TRANSFER = '/api/v3/account/transfer';

export interface TransfersUndo {
  kind: 'transfers';
  /** The key role that made the transfers. */
  credential: string;
  coin: string;
  /** Each transfer the target acknowledged, as made (the journal appends them as they are made). */
  moves: Array<{ fromType: string; toType: string; amount: string }>;
}

type Send = (fromType: string, toType: string, amount: number) => Promise<boolean>;

/**
 * Puts back what a list of transfers moved: the net change of each account type, moved back along the pairs the
 * transfers used (both ways), so that a hundred transfers cost a few to undo. A fee (U-NS-FEES) may leave a type short
 * of its whole net gain: then the gain less the largest fee is moved back. Returns the moves refused, if any.
 */
export async function putBack(moves: TransfersUndo['moves'], fee: number, send: Send): Promise<string[]> {
  const net = new Map<string, number>();
  const edges = new Set<string>();
  for (const m of moves) {
    const n = Number(m.amount);
    net.set(m.fromType, (net.get(m.fromType) ?? 0) - n);
    net.set(m.toType, (net.get(m.toType) ?? 0) + n);
    edges.add(`${m.fromType}>${m.toType}`).add(`${m.toType}>${m.fromType}`);
  }
  const refused: string[] = [];
  const round = (n: number) => Math.round(n * 1e8) / 1e8;
  for (let guard = 0; guard < 2 * net.size; guard++) {
    const gaining = [...net].find(([, n]) => round(n) > 0);
    const losing = [...net].find(([, n]) => round(n) < 0);
    if (!gaining || !losing) break;
    const path = route(edges, gaining[0], losing[0]);
    if (!path) break;
    const amount = round(Math.min(gaining[1], -losing[1]));
    for (let i = 0; i + 1 < path.length; i++) {
      const ok = (await send(path[i]!, path[i + 1]!, amount)) || (fee > 0 && (await send(path[i]!, path[i + 1]!, Math.floor((amount / (1 + fee)) * 1e8) / 1e8)));
      if (!ok) {
        refused.push(`${amount} from ${path[i]} to ${path[i + 1]}`);
        return refused;
      }
    }
    net.set(gaining[0], gaining[1] - amount);
    net.set(losing[0], losing[1] + amount);
  }
  return refused;
}

/** The shortest way from one type to another along the pairs (breadth first). */
function route(edges: Set<string>, from: string, to: string): string[] | undefined {
  const queue: string[][] = [[from]];
  const seen = new Set([from]);
  while (queue.length) {
    const path = queue.shift()!;
    const at = path[path.length - 1]!;
    if (at === to) return path;
    for (const e of edges) {
      const [a, b] = e.split('>');
      if (a === at && !seen.has(b!)) {
        seen.add(b!);
        queue.push([...path, b!]);
      }
    }
  }
  return undefined;
}

/** A transfer of the key role's, as the undo sends it: whether it was accepted. */
export const transferSender = (client: Client, undo: Pick<TransfersUndo, 'credential' | 'coin'>, label: string): Send => async (fromType, toType, amount) => {
  const r = await client.send({ method: 'POST', path: TRANSFER, json: { fromType, toType, coin: undo.coin, amount: String(amount) }, authenticate: true, credential: undo.credential, label: `${label}: ${amount} ${undo.coin} from ${fromType} to ${toType}` });
  return isAccepted(r);
};

export async function restoreFunds(undo: TransfersUndo | EarnUndo | LoanUndo, ctx: RestoreContext): Promise<'restored' | 'nothing' | { conflict: string }> {
  if (undo.kind === 'earn-subscription' || undo.kind === 'loan') return restoreSubscriptionOrLoan(undo, ctx.client);
  if (undo.kind !== 'transfers') return { conflict: `no restore is known for a ${String((undo as { kind?: unknown }).kind)} write` };
  if (!undo.moves?.length) return 'nothing';
  const s = ctx.settings as UnifiedExchangeSettings;
  const refused = await putBack(undo.moves, s.fees?.transfer ?? 0, transferSender(ctx.client, undo, 'restore'));
  return refused.length ? { conflict: `moving back ${refused.join(', ')} was refused` } : 'restored';
}
