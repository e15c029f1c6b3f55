/**
 * Stateful and eventual checks, shared by every suite:
 * - `commandProperty`: a model-based command sequence (fast-check `commands` run by `asyncModelRun`) as a property
 *   of the `property` fixture, so that each failing step names its requirement, shrinks to the shortest sequence
 *   that still fails, and carries its exchanges as evidence (nonce sequences, configuration revisions);
 * - `eventually`: "becomes queryable within a few seconds", with a bounded wait that is reported either way.
 */
import fc from 'fast-check';
import type { PropertySpec, Saw } from './property-runner.ts';
import { RequirementViolation } from './verdicts.ts';

/** One step of a sequence: when it applies to the model, and what it does to the target and the model. */
export interface Step<Model extends object, Real> {
  /** Shown in counterexamples: what the step sends ("login with nonce n+1"). */
  describe(): string;
  /** The requirements this step tests: a request of it that gets no answer is evidence against these. */
  testing: string[];
  applies(model: Readonly<Model>): boolean;
  /** Sends the step's requests and compares the answers with the model; throws a RequirementViolation on a deviation. */
  run(model: Model, real: Real, saw: Saw): Promise<void>;
}

/**
 * A property over sequences of steps. Every case starts from a fresh model and a fresh real system (a new API key,
 * user or configuration document, so that cases never share state), runs its steps in order while they apply, and
 * stops at the first deviation.
 */
export function commandProperty<Model extends object, Real>(spec: {
  id: string;
  requirements: string[];
  runs: number;
  steps: Array<fc.Arbitrary<Step<Model, Real>>>;
  /** The initial model and the real system of one case. */
  setup: () => Promise<{ model: Model; real: Real }> | { model: Model; real: Real };
  maxSteps?: number;
}): PropertySpec<Iterable<fc.AsyncCommand<Model, Real>>> & { saw?: Saw } {
  let saw: Saw = () => {};
  const asCommand = (step: Step<Model, Real>): fc.AsyncCommand<Model, Real> & { testing: string[] } => ({
    check: (m) => step.applies(m),
    run: (m, r) => step.run(m, r, (id, why) => saw(id, why)),
    toString: () => step.describe(),
    testing: step.testing,
  });
  return {
    id: spec.id,
    requirements: spec.requirements,
    runs: spec.runs,
    arbitrary: fc.commands(spec.steps.map((s) => s.map(asCommand)), { maxCommands: spec.maxSteps ?? 12 }),
    check: async (cmds, skip, seen) => {
      saw = (id, why) => {
        if (!skip.has(id)) seen(id, why);
      };
      const { model, real } = await spec.setup();
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } catch (e) {
        // A deviation of a requirement already set aside is not judged again: the case is over without a verdict.
        if (e instanceof RequirementViolation && e.requirements.every((id) => skip.has(id))) return;
        throw e;
      }
    },
    // A case tests what its steps test: the requirements of the sequence, set aside or not.
    // Only the steps that ran (fast-check wraps each command and marks those it executed before the failure).
    testing: (cmds) => [
      ...new Set(
        [...cmds]
          .map((c) => c as { hasRan?: boolean; cmd?: { testing?: string[] }; testing?: string[] })
          .filter((c) => c.hasRan !== false)
          .flatMap((c) => (c.cmd ?? c).testing ?? spec.requirements),
      ),
    ],
  };
}

export interface Eventually<T> {
  value: T;
  /** How long it took, in ms: reported, so that a slow target shows before it becomes a failing one. */
  waitedMs: number;
  attempts: number;
}

/**
 * Asks `probe` until `accept` holds or `withinMs` has passed (the document's "within a few seconds", as the profile
 * states it). Throws a RequirementViolation of `requirement` with the last answer when the time runs out.
 */
export async function eventually<T>(opts: {
  requirement: string;
  what: string;
  probe: () => Promise<T>;
  accept: (value: T) => boolean;
  withinMs: number;
  /** Pause between attempts; grows by half each time up to a second. */
  firstPauseMs?: number;
  describe?: (value: T) => string;
}): Promise<Eventually<T>> {
  const started = performance.now();
  let pause = opts.firstPauseMs ?? 100;
  for (let attempts = 1; ; attempts++) {
    const value = await opts.probe();
    const waitedMs = Math.round(performance.now() - started);
    if (opts.accept(value)) return { value, waitedMs, attempts };
    if (waitedMs + pause > opts.withinMs) {
      throw new RequirementViolation(opts.requirement, `${opts.what}: not so after ${waitedMs} ms and ${attempts} attempts; last answer: ${opts.describe?.(value) ?? JSON.stringify(value)?.slice(0, 300)}`, `${opts.what} within ${opts.withinMs} ms`);
    }
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(1000, pause * 1.5);
  }
}
