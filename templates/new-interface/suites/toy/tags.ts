import type { RequirementId } from '../../generated/toy.ts';
import { reqTags as tagsOf } from '../../harness/verdicts.ts';

/** The tags of the requirements a test claims, typed by the spec's ids (generated/toy.ts): a misspelt id does not compile. */
export const reqTags = (...ids: RequirementId[]): string[] => tagsOf(...ids);
