// Seeded faults of the unified-exchange reference: the routing's (routing/catalogue.ts) and each part's own. Every
// fault is one plausible bug of a deployment; `violates` lists what a good suite must see fail against reference.yaml.
import type { Fault } from '../types.ts';
import { routingFaults } from './routing/catalogue.ts';
import { tradingFaults } from './trading/catalogue.ts';
import { marketFaults } from './market/catalogue.ts';
import { fundsFaults } from './funds/catalogue.ts';

export type { Fault };

export const faults = [...routingFaults, ...tradingFaults, ...marketFaults, ...fundsFaults] as const satisfies readonly Fault[];
