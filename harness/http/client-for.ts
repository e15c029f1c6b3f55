/**
 * The one way to build a client for a target of the profile: time-outs, pacing and the share of the request rate come
 * from the profile alike wherever a request is sent (the checks, the start-up probe, restore, replay). The profile's
 * requestsPerSecond is for the whole run: a run split between workers and between shards gives each its share, so
 * that three shards against one live target send no more than one unsplit run would.
 */
import type { Profile } from '../profile/types.ts';
import { runShard, type Shard } from '../options.ts';
import type { InterfaceName } from '../../interfaces/registry.ts';
import type { Secrets } from '../secrets.ts';
import { specForTarget } from '../spec/for-target.ts';
import type { LoadedSpec } from '../spec/types.ts';
import { Client, type Authenticate, type ClientOptions } from './client.ts';

/** The share of the profile's rate one worker of one shard may use. */
export function rateShareOf(workers: number, shard: Shard | undefined = runShard()): number {
  return 1 / (Math.max(1, workers) * (shard?.total ?? 1));
}

export interface ClientFor {
  profile: Pick<Profile, 'requestTimeoutMs' | 'probeTimeoutMs' | 'requestsPerSecond' | 'interfaces'>;
  interfaceName: InterfaceName;
  baseUrl: string;
  secrets: Secrets;
  /** The suite's authentication step (suites/<name>/interface.ts), for requests sent with `authenticate: true`. */
  authenticate: Authenticate | undefined;
  /** A live target is paced; the start-up probe is one request, never paced, with the probe's own time-out. */
  purpose: 'checks' | 'probe' | 'restore' | 'replay';
  live: boolean;
  /** Parallel workers of this run (the checks); the other purposes run in one process. */
  workers?: number;
  /** The spec as this target serves it, where the caller has it already. */
  spec?: LoadedSpec;
  onExchange?: ClientOptions['onExchange'];
  onWrite?: ClientOptions['onWrite'];
  health?: ClientOptions['health'];
}

export function clientFor(o: ClientFor): Client {
  const settings = o.profile.interfaces[o.interfaceName]?.settings;
  const probe = o.purpose === 'probe';
  return new Client({
    interfaceName: o.interfaceName,
    baseUrl: o.baseUrl,
    spec: o.spec ?? specForTarget(o.interfaceName, settings),
    secrets: o.secrets,
    timeoutMs: (probe ? o.profile.probeTimeoutMs : o.profile.requestTimeoutMs) ?? 5000,
    live: o.live && !probe,
    requestsPerSecond: probe ? 0 : (o.profile.requestsPerSecond ?? 0),
    rateShare: rateShareOf(o.purpose === 'checks' ? (o.workers ?? 1) : 1),
    onExchange: o.onExchange,
    onWrite: o.onWrite,
    health: o.health,
    authenticate: o.authenticate,
    settings,
  });
}
