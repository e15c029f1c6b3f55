import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** One Ajv configuration for the whole harness: JSON Schema 2020-12 (OpenAPI 3.1's dialect) with formats. */
export function makeAjv(options: { useDefaults?: boolean; validateSchema?: boolean } = {}) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: options.useDefaults ?? false, validateSchema: options.validateSchema ?? true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}
