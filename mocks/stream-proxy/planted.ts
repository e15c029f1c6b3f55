/**
 * Secrets of the deployment the reference plants in its own state (the provider's password in the sources document):
 * the harness must redact them like its own credentials (the spec's x-secret-members), and the self-test looks for
 * them in every file a run writes.
 */
export const PLANTED_SECRETS = { providerPassword: 'planted-provider-password-Q7mX2kV9' } as const;
