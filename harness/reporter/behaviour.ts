/**
 * Writes the run's behaviour recording (harness/diff/recording.ts) where the run asked for one (ENV.behaviour): each
 * test's observations, sent by its recorder fixture as an attachment, and the readings its checks saw, gathered per
 * interface into `behaviour/<interface>.json` of the report folder. A run that asks for none pays nothing here.
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { ENV } from '../options.ts';
import { interfaceOfTest, reportsDir } from '../paths.ts';
import { loadProfile } from '../profile/load.ts';
import { isInterfaceName } from '../../interfaces/registry.ts';
import { secretsFor } from '../targets.ts';
import { ANNOTATION, type SeenReading } from '../verdicts.ts';
import type { Observation } from '../diff/observation.ts';
import { BEHAVIOUR_ATTACHMENT, RECORDING_SCHEMA_VERSION, writeRecording, type InterfaceRecording } from '../diff/recording.ts';
import { loadSpec } from '../spec/load.ts';
import type { Profile } from '../profile/types.ts';
import type { InterfaceName } from '../../interfaces/registry.ts';

/**
 * The reading of every open point an embedded reference was started in: the profile's reference.readings, else the
 * spec's first reading (the reference's default). What the behaviour diff names a difference by where both sides are
 * references. A live target's readings are only those its checks saw.
 */
function configuredReadings(profile: Profile, name: InterfaceName): Record<string, string> | undefined {
  const entry = profile.interfaces[name];
  if (!entry || entry.baseUrl) return undefined;
  const asked = (entry.reference as { readings?: Record<string, string> } | undefined)?.readings ?? {};
  const out: Record<string, string> = {};
  for (const p of loadSpec(name).notShown) {
    const first = p.readings?.[0]?.id;
    const reading = asked[p.id] ?? first;
    if (reading) out[p.id] = reading;
  }
  return out;
}

export default class BehaviourReporter implements Reporter {
  private readonly byInterface = new Map<string, InterfaceRecording>();
  private profileOnce?: Profile;

  /** The run's profile, loaded once (a run that records nothing never loads it here). */
  private get profile(): Profile {
    return (this.profileOnce ??= loadProfile());
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (!process.env[ENV.behaviour]) return;
    const interfaceName = interfaceOfTest(test.titlePath());
    if (!isInterfaceName(interfaceName)) return;
    const r = this.recordingOf(interfaceName);
    const body = result.attachments.find((a) => a.name === BEHAVIOUR_ATTACHMENT)?.body;
    if (body) r.observations.push(...(JSON.parse(body.toString('utf8')) as Observation[]));
    for (const a of result.annotations ?? []) {
      if (a.type !== ANNOTATION.reading || !a.description) continue;
      const seen = JSON.parse(a.description) as SeenReading;
      if (seen.reading) r.readings.push({ test: test.title, point: seen.point, reading: seen.reading });
    }
  }

  onEnd(): void {
    if (!process.env[ENV.behaviour] || this.byInterface.size === 0) return;
    const profile = this.profile;
    for (const r of this.byInterface.values()) {
      const configured = isInterfaceName(r.interface) ? configuredReadings(profile, r.interface) : undefined;
      if (configured) r.configured = configured;
    }
    const redact = (text: string) => [...this.byInterface.keys()].reduce((t, name) => (isInterfaceName(name) ? secretsFor(profile, name).redact(t) : t), text);
    writeRecording(reportsDir(), [...this.byInterface.values()], redact);
  }

  private recordingOf(interfaceName: string): InterfaceRecording {
    let r = this.byInterface.get(interfaceName);
    if (!r) {
      r = { schemaVersion: RECORDING_SCHEMA_VERSION, interface: interfaceName, seed: Number(process.env[ENV.seed]), profile: this.profile.name, observations: [], readings: [] };
      this.byInterface.set(interfaceName, r);
    }
    return r;
  }
}
