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

export default class BehaviourReporter implements Reporter {
  private readonly byInterface = new Map<string, InterfaceRecording>();

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
    const profile = loadProfile();
    const redact = (text: string) => [...this.byInterface.keys()].reduce((t, name) => (isInterfaceName(name) ? secretsFor(profile, name).redact(t) : t), text);
    writeRecording(reportsDir(), [...this.byInterface.values()], redact);
  }

  private recordingOf(interfaceName: string): InterfaceRecording {
    let r = this.byInterface.get(interfaceName);
    if (!r) {
      r = { schemaVersion: RECORDING_SCHEMA_VERSION, interface: interfaceName, seed: Number(process.env[ENV.seed]), profile: loadProfile().name, observations: [], readings: [] };
      this.byInterface.set(interfaceName, r);
    }
    return r;
  }
}
