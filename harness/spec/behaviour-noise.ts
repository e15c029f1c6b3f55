/**
 * The lint of a spec's `x-behaviour-noise` (npm run lint:specs): each entry names one member path pattern, one
 * header, or one requirement or operation whose cases vary with the clock, and says why. A declaration the diff cannot read would hide nothing, or everything.
 */
export function behaviourNoiseProblems(name: string, doc: Record<string, unknown>, requirementIds: readonly string[], operationKeys: readonly string[]): string[] {
  const list = doc['x-behaviour-noise'];
  if (list === undefined) return [`${name}: no x-behaviour-noise (declare [] where nothing varies by itself)`];
  if (!Array.isArray(list)) return [`${name}: x-behaviour-noise is not a list`];
  return list.flatMap((entry: Record<string, unknown>, i) => {
    const at = `${name}: x-behaviour-noise[${i}]`;
    const problems: string[] = [];
    const kinds = ['member', 'header', 'requirement', 'operation'].filter((k) => entry?.[k] !== undefined);
    if (kinds.length !== 1) problems.push(`${at}: give one of member, header, requirement or operation`);
    if (entry?.operation !== undefined && !operationKeys.includes(String(entry.operation))) problems.push(`${at}: operation ${entry.operation} is not one of the spec ("POST /path" as the spec writes it)`);
    if (entry?.requirement !== undefined && !requirementIds.includes(String(entry.requirement))) problems.push(`${at}: requirement ${entry.requirement} is not one of the spec`);
    if (typeof entry?.why !== 'string' || entry.why.trim() === '') problems.push(`${at}: say why it varies (why)`);
    const extra = Object.keys(entry ?? {}).filter((k) => !['member', 'header', 'requirement', 'operation', 'why'].includes(k));
    if (extra.length) problems.push(`${at}: unknown ${extra.join(', ')}`);
    if (typeof entry?.member === 'string' && !/^(\*\*|\*|[A-Za-z0-9_$-]+(\[\])*)(\.(\*\*|\*|[A-Za-z0-9_$-]+(\[\])*))*$/.test(entry.member)) problems.push(`${at}: member ${entry.member} is not a path (a.b[].c, * one segment, ** any run)`);
    if (entry?.member === '**' || entry?.member === '*') problems.push(`${at}: member ${entry.member} would hide every member`);
    if (typeof entry?.header === 'string' && !/^[A-Za-z0-9-]+$/.test(entry.header)) problems.push(`${at}: header ${entry.header} is not a header name`);
    return problems;
  });
}
