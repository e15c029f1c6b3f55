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
import { conformance } from './conformance-run.ts';
import { processTreeCpuSeconds } from './process-cpu.ts';

export interface BatchRequest {
  args: string[];
  env: Record<string, string>;
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

function setEnv(to: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in to)) delete process.env[key];
  for (const [key, value] of Object.entries(to)) if (value !== undefined) process.env[key] = value;
}

/**
 * What escaped a run (an unhandled rejection or exception, which ends a run of its own with a crash): the run is
 * reported as not decided, with the error, and the process ends after it instead of taking another run.
 */
let escaped: unknown;
process.on('uncaughtException', (e) => (escaped ??= e));
process.on('unhandledRejection', (e) => (escaped ??= e));

type Write = typeof process.stdout.write;

async function runOne(request: BatchRequest): Promise<BatchReply> {
  setEnv({ ...STARTING_ENV, ...request.env });
  let output = '';
  const own = { out: process.stdout.write, err: process.stderr.write };
  // Playwright waits for a write's callback (an empty write flushes its output at the end of a run): it is called.
  const capture = ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
    output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const callback = typeof encoding === 'function' ? encoding : done;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  }) as Write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  let code: number;
  const cpuBefore = processTreeCpuSeconds();
  try {
    code = await conformance(request.args);
  } catch (e) {
    output += `conformance: the run threw: ${(e as Error)?.stack ?? String(e)}\n`;
    code = 2;
  } finally {
    process.stdout.write = own.out;
    process.stderr.write = own.err;
    setEnv(STARTING_ENV);
  }
  const cpuAfter = processTreeCpuSeconds();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  if (escaped !== undefined) {
    output += `conformance: an error escaped the run (a run of its own would have crashed): ${(escaped as Error)?.stack ?? String(escaped)}\n`;
    return { code: code === 0 ? 2 : code, output, spent: true, ...(cpu === undefined ? {} : { cpu }) };
  }
  return { code, output, ...(cpu === undefined ? {} : { cpu }) };
}

// A self-test that ends without retiring its batches (killed, or crashed) closes their channel: they end with it
// instead of waiting for runs that never come.
process.on('disconnect', () => process.exit(0));

process.on('message', (request: BatchRequest) => {
  void runOne(request).then((reply) => {
    process.send!(reply, () => {
      if (reply.spent) process.exit(0);
    });
  });
});
