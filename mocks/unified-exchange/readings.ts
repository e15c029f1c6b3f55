// The readings of the open points of specs/unified-exchange.yaml that this reference implements (see
// mocks/readings.ts): the routing's (routing/catalogue.ts) and each part's own. The first of each is the reference's
// default. The server reads them through one readingSwitch over the whole catalogue and hands the parts
// `reading(point)`.
import type { OpenPointReadings } from '../readings.ts';
import { routingReadings } from './routing/catalogue.ts';
import { tradingReadings } from './trading/catalogue.ts';
import { marketReadings } from './market/catalogue.ts';
import { fundsReadings } from './funds/catalogue.ts';

export const readings = [...routingReadings, ...tradingReadings, ...marketReadings, ...fundsReadings] as const satisfies readonly OpenPointReadings[];
