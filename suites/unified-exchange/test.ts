import { suiteTest } from '../../harness/fixtures.ts';
import { suite } from './interface.ts';

/** The harness's test with the unified-exchange suite: its files take `test` from here, so that requests are signed its way. */
export const test = suiteTest(suite);
