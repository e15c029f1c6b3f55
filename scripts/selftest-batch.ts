/**
 * A self-test batch process: conformance runs one after another in this one process, as the self-test sends them over
 * the IPC channel it was forked with (scripts/selftest-batches.ts). Most of a short run's CPU time was its process's
 * start: node, the harness's modules, Playwright's runner, the profile's schema. A batch pays that once for many runs.
 *
 * Each run gets this process's starting environment with the run's own on top, and sends back its exit code and its
 * console output. Playwright's workers are started afresh by every run, as in a run of its own; what this process
 * keeps between runs is only what does not depend on the run (loaded modules, compiled schemas, the suites' test
 * declarations: a run that selects checks with --checks, which changes the declarations, is not sent to a batch).
 */
import { setEnv } from '../harness/group/env.ts';
import { conformance } from './conformance-run.ts';
import { conformanceGroup } from './conformance-group.ts';
import { processTreeCpuSeconds } from './process-cpu.ts';

export interface BatchRequest {
  args: string[];
  env: Record<string, string>;
}

/** Runs made as one group (scripts/conformance-group.ts): one Playwright invocation on `workers` workers for all. */
export interface GroupRequest {
  group: BatchRequest[];
  workers: number;
}

export interface GroupReply {
  /** Each run's reply, in order: its code and its own console output, with the group's shared Playwright output after it. */
  replies: BatchReply[];
  /** The group's CPU seconds, for all its runs together. */
  cpu?: number;
  spent?: boolean;
}

export interface BatchReply {
  code: number;
  output: string;
  /** The run's CPU seconds: this process's and its workers', its references' included (scripts/process-cpu.ts). */
  cpu?: number;
  /** Set when this process cannot be trusted with another run (something escaped the run): the self-test starts a new one. */
  spent?: boolean;
}

const STARTING_ENV = { ...process.env };

/**
 * What escaped a run (an unhandled rejection or exception, which ends a run of its own with a crash): the run is
 * reported as not decided, with the error, and the process ends after it instead of taking another run.
 */
let escaped: unknown;
process.on('uncaughtException', (e) => (escaped ??= e));
process.on('unhandledRejection', (e) => (escaped ??= e));

type Write = typeof process.stdout.write;

/** Runs `work` with this process's console output captured into `into`, and gives its result. */
async function captured<T>(into: { text: string }, work: () => Promise<T>): Promise<T> {
  const own = { out: process.stdout.write, err: process.stderr.write };
  // Playwright waits for a write's callback (an empty write flushes its output at the end of a run): it is called.
  const capture = ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
    into.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const callback = typeof encoding === 'function' ? encoding : done;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  }) as Write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    return await work();
  } finally {
    process.stdout.write = own.out;
    process.stderr.write = own.err;
  }
}

function cpuSince(before: number | undefined): number | undefined {
  const after = processTreeCpuSeconds();
  return before === undefined || after === undefined ? undefined : after - before;
}

/** What escaped a run, said after its output; the process takes no other run after it. */
function escapedNote(): string {
  return `conformance: an error escaped the run (a run of its own would have crashed): ${(escaped as Error)?.stack ?? String(escaped)}\n`;
}

async function runOne(request: BatchRequest): Promise<BatchReply> {
  setEnv({ ...STARTING_ENV, ...request.env });
  const output = { text: '' };
  let code: number;
  const cpuBefore = processTreeCpuSeconds();
  try {
    code = await captured(output, () => conformance(request.args));
  } catch (e) {
    output.text += `conformance: the run threw: ${(e as Error)?.stack ?? String(e)}\n`;
    code = 2;
  } finally {
    setEnv(STARTING_ENV);
  }
  const cpu = cpuSince(cpuBefore);
  const measured = cpu === undefined ? {} : { cpu };
  if (escaped !== undefined) return { code: code === 0 ? 2 : code, output: output.text + escapedNote(), spent: true, ...measured };
  return { code, output: output.text, ...measured };
}

async function runGroup(request: GroupRequest): Promise<GroupReply> {
  const outputs = request.group.map(() => ({ text: '' }));
  const shared = { text: '' };
  let codes: number[];
  const cpuBefore = processTreeCpuSeconds();
  try {
    codes = await conformanceGroup(
      request.group.map((r) => ({ args: r.args, env: r.env })),
      request.workers,
      (part, work) => captured(part === undefined ? shared : outputs[part], work),
    );
  } catch (e) {
    shared.text += `conformance: the group threw: ${(e as Error)?.stack ?? String(e)}\n`;
    codes = request.group.map(() => 2);
  } finally {
    setEnv(STARTING_ENV);
  }
  const cpu = cpuSince(cpuBefore);
  const tail = shared.text ? `--- the group's Playwright run (shared by ${request.group.length} runs) ---\n${shared.text}` : '';
  const spent = escaped !== undefined;
  const replies = codes.map((code, i) => ({ code: spent && code === 0 ? 2 : code, output: outputs[i].text + tail + (spent ? escapedNote() : '') }));
  return { replies, ...(cpu === undefined ? {} : { cpu }), ...(spent ? { spent } : {}) };
}

// A self-test that ends without retiring its batches (killed, or crashed) closes their channel: they end with it
// instead of waiting for runs that never come.
process.on('disconnect', () => process.exit(0));

process.on('message', (request: BatchRequest | GroupRequest) => {
  void ('group' in request ? runGroup(request) : runOne(request)).then((reply) => {
    process.send!(reply, () => {
      if (reply.spent) process.exit(0);
    });
  });
});
