export type Level = 'must' | 'should' | 'advisory';

/** One rule of a document, as the spec records it. */
export interface Requirement {
  id: string;
  level: Level;
  text: string;
  /** The sentence or table row of the document it comes from (for generic requirements: the harness's own reason). */
  source: string;
  operations?: string[];
  /** false: no HTTP client can observe it; kept for the report, never claimed by a check. */
  observable?: boolean;
  why?: string;
  /** Derived by the harness from the spec rather than written in it. */
  generic?: boolean;
  /**
   * The answer statuses the requirement is about (chat's 429 body and headers): where something in front of the target
   * gives one (a gateway's 429), the requirement judges it as the target's. Every other requirement takes such an
   * answer for the environment's trouble, never for a verdict (harness/answers.ts).
   */
  statuses?: number[];
  /**
   * A group of requirements that one check or one profile switch treats together (the configuration saves, the proxy
   * users): suites and scopes take the group from the spec (`groupOf`) instead of listing its ids again.
   */
  group?: string;
}

/** One way a deployment may reasonably settle an open point. */
export interface OpenPointReading {
  /** Stable within its point, in lowercase words joined by hyphens ("body-first"). */
  id: string;
  text: string;
}

/**
 * What a document marks "not shown" or leaves open (`x-not-shown`): never asserted beyond what every reading agrees on.
 * An observable point lists the readings a deployment may take (the first is the embedded reference's default), and
 * the requirements whose checks meet it; the reference implements at least two of its readings
 * (mocks/<name>/readings.ts), and the self-test runs every suite against each.
 */
export interface OpenPoint {
  id: string;
  text: string;
  source: string;
  /** At least two for an observable point; the first is the reference's default. */
  readings?: OpenPointReading[];
  /** The requirements whose checks meet this point (the self-test runs their tests against each reading). */
  requirements?: string[];
  /** The profile setting (a dotted path under the interface's settings) that states which reading a target takes. */
  setting?: string;
  /** false: no request can observe it (webhooks not shown); `why` says so, and it needs no readings. */
  observable?: boolean;
  why?: string;
}

export interface WrongMethod {
  status: number;
  error?: string;
  message?: string;
}

/** One operation of the spec, flattened for the checks that are derived from it. */
export interface Operation {
  key: string; // "POST /v2/log"
  method: string;
  path: string;
  operationId?: string;
  security: string[]; // names of security schemes that apply
  /**
   * Roles whose valid credential the operation must refuse: `x-refused-roles` of the operation, else, for an
   * operation secured by one scheme alone that says `x-refuses-other-roles`, the spec's other schemes.
   */
  refusedRoles: string[];
  enabledBy?: string;
  write?: string;
  /**
   * `x-moves-funds`: a write that moves funds or creates accounts. No request of any kind goes to it unless the
   * profile names it (a suite's settings say where), since a broken target could take even a wrong one.
   */
  movesFunds?: boolean;
  hasRequestBody: boolean;
  requestBodyRequired: boolean;
  requestSchema?: unknown;
  responses: Record<string, OperationResponse>;
  wrongMethod?: WrongMethod;
  /** Path, query and header parameters (path-level ones included), with their schemas. */
  parameters: Parameter[];
  /** x-valid-request-open: the open points (one id or a list) a refusal of a request valid by the spec could rest on. */
  validRequestOpen?: string[];
  /** x-security-open: the open points (one id or a list) on which whether the operation needs credentials rests. */
  securityOpen?: string[];
  /**
   * x-accepted-while-busy: when the documented success answers any request while the operation is busy (an update
   * already pending), and so bad input too; the generic checks then hold no success against a bad request.
   */
  acceptedWhileBusy?: string;
  /**
   * x-refused-while-busy: when the operation documents refusing a valid request while it is busy (a scan already
   * running, another check's or the operator's): a refusal of the valid request is tried again for a while, and a
   * refusal that lasts is undecided, never a deviation (the interface's own check of the rule judges that).
   */
  refusedWhileBusy?: string;
  /** x-path-setting of the path item: the profile setting that says where a target serves the operation. */
  pathSetting?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: unknown;
}

export interface OperationResponse {
  status: string;
  /** The first documented media type (its schema is `schema`), and every one the spec documents. */
  contentType?: string;
  contentTypes?: string[];
  schema?: unknown;
  headers: Record<string, { required: boolean; schema?: unknown }>;
}

export interface SecurityScheme {
  name: string;
  type: string;
  in?: string;
  headerName?: string;
  scheme?: string;
}

export interface LoadedSpec {
  name: string;
  prefix: string;
  file: string;
  sha256: string;
  document: string;
  section: string;
  title: string;
  version: string;
  doc: Record<string, any>;
  requirements: Requirement[];
  /** The open points of `x-not-shown`, in the spec's order. */
  notShown: OpenPoint[];
  /**
   * Names of members whose values are secrets of the target (`x-secret-members`: a provider's password inside a
   * configuration document): wherever an answer or a request carries one, its value is redacted like a credential.
   */
  secretMembers: string[];
  /**
   * What varies legitimately from one answer to the next (`x-behaviour-noise`: a member path pattern, a header, or a
   * requirement or operation whose cases vary with the clock, each with why), as keys of the behaviour diff
   * (`member:<pattern>`, `header:<name>`, `requirement:<id>`, `operation:<key>`).
   */
  behaviourNoise: Array<{ key: string; why: string }>;
  operations: Operation[];
  securitySchemes: SecurityScheme[];
}
