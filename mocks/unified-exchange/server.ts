// Embedded reference of the unified-account exchange (001_627a805a8a8ef522.txt, /api/v3). Written from the document;
// where it says "not shown" it follows the public exchange the document follows, or the profile's setting where the
// harness makes the point one, or the reading it was started in (readings.ts). It never imports the suite's model.
//
// The wiring only: the routes come from the spec (operations.ts), what every request passes is pipeline.ts (auth.ts,
// limits.ts, validate.ts), the answers replies.ts, the accounts and keys accounts.ts, and the behaviour of the
// operations the parts: trading/ (orders, copy trading; it shows market data its book and trades), market/ (public
// market data), funds/ (account, funds, earn, loans, P2P, broker).
import http from 'node:http';
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';
import type { ReferenceOptions } from '../../harness/reference.ts';
import { faultSwitch, listen } from '../plumbing.ts';
import { readingSwitch } from '../readings.ts';
import type { RunningServer } from '../types.ts';
import { keyring } from './accounts.ts';
import { auth } from './auth.ts';
import { choices, type RoutingReading } from './choices.ts';
import type { Part, PartOptions } from './contract.ts';
import { faults } from './faults.ts';
import { limits } from './limits.ts';
import { operationTable } from './operations.ts';
import { pipeline } from './pipeline.ts';
import { readings } from './readings.ts';
import { CODES, replies, send } from './replies.ts';
import { validator } from './validate.ts';
import { createTrading } from './trading/engine.ts';
import { BODY_UNCHECKED, type TradingFault } from './trading/catalogue.ts';
import { createMarket } from './market/part.ts';
import { createFunds } from './funds/part.ts';
import { withAmountTripwire } from './funds/amount-tripwire.ts';

export type { RunningServer };

export interface UnifiedExchangeReferenceOptions {
  /** The readings of open points to take (point -> reading; readings.ts), beside the defaults. */
  readings?: Readonly<Record<string, string>>;
  /** Every request to a write operation is answered 500: a read-only run passes only if it sends none. */
  writeTripwire?: boolean;
  /**
   * Every request to an operation that moves funds or creates accounts (x-moves-funds) is answered 500: a run whose
   * profile names none of them in fundWrites passes only if it sends none.
   */
  fundWriteTripwire?: boolean;
  /** A transfer, withdrawal, loan, repayment or copy transfer accepted with an amount not the profile's is answered 500 (funds/amount-tripwire.ts). */
  amountTripwire?: boolean;
  /** The trade key has futures copy-trading permission too, as a deployment may give it (accounts.ts). */
  tradeKeyCopyTrading?: boolean;
}

export async function start(options: ReferenceOptions<UnifiedExchangeSettings, UnifiedExchangeReferenceOptions>): Promise<RunningServer> {
  const settings = (options.settings ?? {}) as UnifiedExchangeSettings;
  const on = faultSwitch(faults, 'unified-exchange', options.fault);
  const asked = options.reference?.readings;
  const reading = readingSwitch(readings, 'unified-exchange', asked) as unknown as RoutingReading;
  /** A part's reading of any point of the whole catalogue; a point no catalogue has is a bug of the part. */
  const known = new Set<string>(readings.map((p) => p.point));
  const anyReading = (point: string): string => {
    if (!known.has(point)) throw new Error(`unified-exchange reference: no readings of ${point} in its catalogue`);
    return (reading as unknown as (p: string) => string)(point);
  };
  const maybe = (point: string) => (known.has(point) ? anyReading(point) : undefined);
  const now = () => Date.now();

  const c = choices(settings, reading);
  // The hold mode is the trading part's point (U-NS-HOLD-MODE); a reading asked for wins over the settings.
  const holdMode = maybe('U-NS-HOLD-MODE') === 'hedge' ? 'hedge' : settings.holdMode;
  const keys = keyring(options.secrets ?? {}, holdMode, options.reference?.tradeKeyCopyTrading === true);
  // A run needs its main key: the trading key, or a read-only key alone (the account then has no trading key).
  if (!keys.key(options.secrets?.trade_apiKey ?? '') && !keys.key(options.secrets?.read_apiKey ?? '')) {
    throw new Error('unified-exchange reference: no trade or read key (secrets trade_apiKey, trade_secret, trade_passphrase, or read_*); every run needs one');
  }

  // The faults are fixed at start: the bodies they let through unchecked, by operation, worked out once.
  const bodyUnchecked = new Map(Object.entries(BODY_UNCHECKED).flatMap(([fault, u]) => (on(fault as TradingFault) ? [[u.operationId, u] as const] : [])));
  const partOptions: PartOptions = { settings, reading: anyReading, fault: (name) => on(name as never), now };
  const trading = createTrading(partOptions);
  const funds = createFunds(partOptions);
  const parts: Part[] = [trading, createMarket({ ...partOptions, view: trading }), options.reference?.amountTripwire ? withAmountTripwire(funds, settings.amounts) : funds];

  const table = operationTable(c.paths);
  const answers = replies(c, reading, now);
  const serve = pipeline({
    table,
    choices: c,
    reading,
    on,
    auth: auth(c, keys, on, reading, now),
    limits: limits(c, reading, on, now),
    validator: validator({
      doc: table.doc,
      choices: c,
      reading,
      on,
      groupFuturesTaken: maybe('U-NS-GROUP-CATEGORIES') === 'futures-categories-too',
      symbolOf: (category) => settings.markets?.symbols?.[category as keyof UnifiedExchangeSettings['markets']['symbols']] ?? 'BTCUSDT',
      bodyUnchecked: (operationId) => bodyUnchecked.get(operationId),
    }),
    replies: answers,
    parts,
  });

  const server = http.createServer((req, res) => {
    // The read-only profile's tripwire: a write the harness should never have sent is a server error it cannot miss.
    const tripwire = options.reference?.writeTripwire || options.reference?.fundWriteTripwire;
    const op = tripwire ? table.find(req.method ?? '', new URL(req.url ?? '/', 'http://x').pathname) : undefined;
    if (op?.write && options.reference?.writeTripwire) return send(res, answers.failure({ status: 500, code: CODES.server, msg: `write tripwire: ${op.id} sent to a read-only profile` }));
    if (op?.movesFunds && options.reference?.fundWriteTripwire) return send(res, answers.failure({ status: 500, code: CODES.server, msg: `fund-write tripwire: ${op.id} sent to a profile that names no fund write` }));
    serve(req).then(
      (reply) => send(res, reply),
      // A bug of the reference (or the fault 5xx-on-bad-input): 500, its message kept for whoever reads the exchange.
      (e: unknown) => (res.headersSent ? res.destroy() : send(res, answers.failure({ status: 500, code: CODES.server, msg: `Unexpected error: ${e instanceof Error ? e.message : String(e)}` }))),
    );
  });
  return listen(server, options.host, options.port, () => {
    for (const part of parts) part.close?.();
  });
}
