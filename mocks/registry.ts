import * as bridge from './game-bridge/server.ts';
import { faults as bridgeFaults } from './game-bridge/faults.ts';
import * as chat from './chat/server.ts';
import { faults as chatFaults } from './chat/faults.ts';
import type { Fault, RunningServer } from './types.ts';

export type { Fault, RunningServer };

export interface ReferenceOptions {
  settings: any;
  reference: any;
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

export interface ReferenceDeployment {
  start(options: ReferenceOptions): Promise<RunningServer>;
  faults: Fault[];
}

/** The embedded reference deployment: one behavioural server per interface, each with its seeded faults. */
export const references: Record<string, ReferenceDeployment> = {
  'game-bridge': { start: bridge.start as ReferenceDeployment['start'], faults: bridgeFaults },
  chat: { start: chat.start as ReferenceDeployment['start'], faults: chatFaults },
};
