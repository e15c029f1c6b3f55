// Seeded faults of the unified-exchange reference: the routing's (routing/catalogue.ts) and each part's own. Every
// fault is one plausible bug of a deployment; `violates` lists what a good suite must see fail against reference.yaml.
import type { Fault } from '../types.ts';
import { routingFaults } from './routing/catalogue.ts';
import { tradingFaults } from './trading/catalogue.ts';
import { marketFaults } from './market/catalogue.ts';
import { fundsFaults } from './funds/catalogue.ts';

export type { Fault };

/**
 * A part's faults change only its own operations: the self-test may pair one with another part's (Fault.part). An
 * entry that names its part keeps it (a market fault of the order book, which the trading part serves and reads).
 */
const ofPart = <F extends Fault>(list: readonly F[], part: string): Array<F & { readonly part: string }> => list.map((f) => ({ ...f, part: f.part ?? part }));

// The routing's faults reach every answer and run alone, but for those that name the one part they reach.
export const faults = [...routingFaults, ...ofPart(tradingFaults, 'trading'), ...ofPart(marketFaults, 'market'), ...ofPart(fundsFaults, 'funds')] as const satisfies readonly Fault[];
