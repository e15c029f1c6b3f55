import type { RequirementId } from '../../generated/unified-exchange.ts';
import { reqTags as tagsOf } from '../../harness/verdicts.ts';

/** The tags of the requirements a test proves, typed by the spec's ids: a misspelt id does not compile. */
export const reqTags = (...ids: RequirementId[]): string[] => tagsOf(...ids);
export type { RequirementId };
