import { suiteTest } from '../../harness/fixtures.ts';
import { suite } from './interface.ts';

/** The harness's test with the exchange-session suite: its files take `test` from here, so that requests are authenticated its way. */
export const test = suiteTest(suite);
