/**
 * Pacing for profiles that state rate limits (U-NS-RATE-LIMITS per-uid-and-ip): at most `perSecond` requests in any
 * second per key (a credential and an operation), so that a throttle answer (a 400 in one reading of
 * U-NS-THROTTLE-STATUS) is never taken for a refusal. A burst up to the limit goes at once, unlike the profile-wide
 * spacing of harness/http/pacing.ts; each caller keeps its own count.
 */
export function keyedPacer(perSecond: number): (key: string) => Promise<void> {
  const sent = new Map<string, number[]>();
  return async (key) => {
    for (;;) {
      const now = performance.now();
      const recent = (sent.get(key) ?? []).filter((t) => now - t < 1000);
      sent.set(key, recent);
      if (recent.length < perSecond) {
        recent.push(now);
        return;
      }
      await new Promise((r) => setTimeout(r, 1000 - (now - recent[0]!) + 5));
    }
  };
}
