import { defineGenericChecks } from '../../harness/generic/define.ts';
import { test } from './test.ts';

// The key goes through the suite's authentication step; the spec gives everything else.
defineGenericChecks(test);
