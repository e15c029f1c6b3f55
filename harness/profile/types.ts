export interface BridgeSettings {
  maxList: number;
  endpoints: { log: boolean; status: boolean; players: boolean; info: boolean };
  platform?: string;
  onlinePlayers?: number;
}

export interface ChatSettings {
  windowMs: number;
  maxRequests: number;
  instances: number;
  clientAddressesPreserved: boolean;
  developmentMode: boolean;
}

export interface InterfaceProfile<S = Record<string, unknown>> {
  baseUrl?: string;
  reference?: Record<string, unknown>;
  /** credential name -> environment variable name */
  credentials?: Record<string, string>;
  settings: S;
}

export interface Profile {
  name: string;
  description?: string;
  file: string;
  writes: boolean;
  requestsPerSecond: number;
  requestTimeoutMs: number;
  probeTimeoutMs: number;
  maxRunMinutes?: number;
  interfaces: {
    'game-bridge'?: InterfaceProfile<BridgeSettings>;
    chat?: InterfaceProfile<ChatSettings>;
  };
}
