/**
 * The self-test's side of its batch processes (scripts/selftest-batch.ts): each job slot keeps one process and sends
 * it run after run. A process that ends while a run is in it (a crash, an out-of-memory) gives that run exit 2 with
 * what it printed, and the slot's next run starts a new process; so does a process that has made RUNS_PER_PROCESS
 * runs, so that nothing one run leaves behind in it grows without bound.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../harness/paths.ts';
import type { BatchReply, BatchRequest, GroupReply, GroupRequest } from './selftest-batch.ts';

const RUNS_PER_PROCESS = 25;

export class BatchSlot {
  private child: ChildProcess | undefined;
  private made = 0;
  /** The end of what the current process printed outside a run (a crash), for the reply of the run it ends. */
  private stderr: () => string = () => '';

  /** Makes one conformance run (its arguments, and its environment on top of the self-test's) in this slot's process. */
  run(args: string[], env: Record<string, string>): Promise<BatchReply> {
    return this.send<BatchReply>({ args, env } satisfies BatchRequest, 1, (crash) => crash);
  }

  /** Makes several runs as one group (scripts/conformance-group.ts) in this slot's process: a reply per run, in order. */
  async runGroup(runs: BatchRequest[], workers: number): Promise<{ replies: BatchReply[]; cpu?: number }> {
    return this.send<GroupReply>({ group: runs, workers } satisfies GroupRequest, runs.length, (crash) => ({ replies: runs.map(() => crash), spent: true }));
  }

  private send<R extends { spent?: boolean }>(request: BatchRequest | GroupRequest, runs: number, crashed: (reply: BatchReply) => R): Promise<R> {
    const child = this.process();
    this.made += runs;
    return new Promise<R>((resolve) => {
      let settled = false;
      const settle = (reply: R) => {
        if (settled) return;
        settled = true;
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (reply.spent || this.made >= RUNS_PER_PROCESS) this.retire();
        resolve(reply);
      };
      const onMessage = (reply: R) => settle(reply);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        this.child = undefined;
        settle(crashed({ code: 2, output: `${this.stderr()}the self-test's batch process ended during the run (exit ${code ?? signal})\n`, spent: true }));
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send(request);
    });
  }

  /** Ends the slot's process (the self-test is over, or the process has made its share of runs). */
  retire(): void {
    this.child?.kill();
    this.child = undefined;
    this.made = 0;
  }

  private process(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.connected) return this.child;
    // Its console output reaches the self-test through each run's reply; what the process prints outside a run (a
    // crash) is kept for the reply of the run it ends.
    const child = fork(path.join(ROOT, 'scripts', 'selftest-batch.ts'), [], { cwd: ROOT, execArgv: ['--import', 'tsx/esm'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
    this.stderr = () => stderr;
    this.child = child;
    this.made = 0;
    return child;
  }
}
