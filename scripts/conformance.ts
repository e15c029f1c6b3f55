/**
 * npm run conformance -- [options]   (--help lists them)
 * Exit 0: every counted requirement that was judged passed; 1: a counted requirement failed; 2: the run could not
 * decide (a bad profile, a target that is not the API, an outage, a time-out, nothing tested).
 */
import { conformance } from './conformance-run.ts';

process.exit(await conformance(process.argv.slice(2)));
