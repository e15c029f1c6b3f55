import type { Static } from '@sinclair/typebox';
import { builtOnce } from '../kit/lazy.ts';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The toy entry of a target profile (interfaces.toy): the credential's variable, and what the document leaves open
 * that a tester may state (T-NS-REFUSAL-STATUS). Built the first time a profile is checked: test workers never load
 * TypeBox.
 */
export const toyEntry = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  return profileEntry({
    reference: Type.Object({}, { additionalProperties: false }),
    credentials: Type.Object({ toyKey: EnvName }, { additionalProperties: false, examples: [{ toyKey: 'TOY_KEY' }] }),
    settings: Type.Object(
      {
        /** The status that refuses an echo without a word, where the tester knows it (unstated: any 4xx). */
        refusalStatus: Type.Optional(Type.Integer({ minimum: 400, maximum: 499, description: 'The status that refuses an echo without a word, if you know it (T-NS-REFUSAL-STATUS).' })),
      },
      { additionalProperties: false, default: {} },
    ),
  });
});

export type ToyEntry = Static<ReturnType<typeof toyEntry>>;
export type ToySettings = ToyEntry['settings'];
