// The toy document, read as code: small enough to check by eye against specs/toy.yaml. It never imports the reference.

/** Generated words the echo property sends at the default depth. */
export const ECHO_CASES = 50;

/** "Answers the word it was given": the answer a conforming target gives to a word of 1 to 64 characters. */
export function echoOf(word: string): { echo: string } {
  return { echo: word };
}

/** The readings of T-NS-REFUSAL-STATUS, by the status a refusal shows. */
export function refusalReading(status: number): 'status-400' | 'status-422' | undefined {
  return status === 400 ? 'status-400' : status === 422 ? 'status-422' : undefined;
}
