/** `--help` (or `-h`) anywhere among a command's arguments: its usage on stdout and exit 0, before it does anything. */
export function answerHelp(usage: string, args: readonly string[] = process.argv.slice(2)): void {
  if (!args.includes('--help') && !args.includes('-h')) return;
  console.log(usage.trim());
  process.exit(0);
}
