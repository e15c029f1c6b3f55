/** Pieces of the target-profile schema that every interface's section uses. */
export const envName = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable' } as const;
