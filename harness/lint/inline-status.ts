/**
 * The lint behind "answers are read through the harness's classification, never by status number" (issues 19 and
 * 43). What an answer is (accepted, refused, throttled, a server error, not the API) and what each kind means for a
 * verdict are decided in one place, harness/answers.ts. A check that reads a status itself decides it again, and
 * sooner or later differently: a 429 taken for "not 200", a 500 for "not the order", a throttled control for a
 * refused one. Refused in suites/:
 * - a status compared with a number or with another status (`status >= 400`, `r.status !== 200`,
 *   `a.status === b.status`, `Math.floor(status / 100)`, `String(status).startsWith('4')`, `case 409:` under a
 *   switch on a status): use `answered(reply, 409)`, `mustAnswer`, `mustAccept`, `needAccepted`, `readState`;
 * - a negated acceptance (`!isAccepted(r)`, `!isRefused(r)`, `answerKind(r) !== 'accepted'`): it puts a throttle and a
 *   server error in the same branch as a refusal. Use `accepted(r)` / `refused(r)`, which throw for both.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export interface InlineStatusTest {
  file: string;
  line: number;
  text: string;
  /** What kind of reading it is: a status compared, or an acceptance negated. */
  rule: 'status-compared' | 'negated-acceptance';
}

const RELATIONAL = new Set([ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken]);
const EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);
const NEGATED = new Set([ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);
/** The classification's predicates: negated, each puts what decides nothing beside what it rules out. */
const PREDICATES = new Set(['isAccepted', 'isRefused', 'isThrottled', 'isServerError']);
const KINDS = new Set(['answerKind', 'statusKind']);

const unwrap = (e: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(e) ? unwrap(e.expression) : e);

/** A status-like operand: an identifier or member whose name ends in "status" (reply.status, control.status, status). */
function isStatus(e: ts.Expression): boolean {
  const inner = unwrap(e);
  const name = ts.isIdentifier(inner) ? inner.text : ts.isPropertyAccessExpression(inner) ? inner.name.text : undefined;
  return name !== undefined && /status$/i.test(name);
}

const isHttpStatusLiteral = (e: ts.Expression) => {
  const inner = unwrap(e);
  return ts.isNumericLiteral(inner) && Number(inner.text) >= 100 && Number(inner.text) <= 599;
};

/** A call of one of `names` (isAccepted(r), answerKind(r)). */
const callOf = (e: ts.Expression, names: Set<string>) => {
  const inner = unwrap(e);
  return ts.isCallExpression(inner) && ts.isIdentifier(inner.expression) && names.has(inner.expression.text);
};

/** The status readings and negated acceptances of one TypeScript source. */
export function inlineStatusTests(file: string, source = readFileSync(file, 'utf8')): InlineStatusTest[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: InlineStatusTest[] = [];
  const report = (node: ts.Node, rule: InlineStatusTest['rule']) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push({ file, line: line + 1, text: node.getText(sf).replace(/\s+/g, ' ').slice(0, 120), rule });
  };
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node)) {
      const { left, right, operatorToken: op } = node;
      const statusVsNumber = (isStatus(left) && isHttpStatusLiteral(right)) || (isStatus(right) && isHttpStatusLiteral(left));
      // status < 300, r.status === 409, a.status !== b.status: a status read by number.
      if ((RELATIONAL.has(op.kind) || EQUALITY.has(op.kind)) && (statusVsNumber || (isStatus(left) && isStatus(right)))) report(node, 'status-compared');
      // status / 100: the class of a status.
      else if (op.kind === ts.SyntaxKind.SlashToken && isStatus(left) && ts.isNumericLiteral(right) && right.text === '100') report(node, 'status-compared');
      // answerKind(r) !== 'accepted', isAccepted(r) === false: a negation in other words.
      else if (NEGATED.has(op.kind) && (callOf(left, KINDS) || callOf(right, KINDS))) report(node, 'negated-acceptance');
      else if (EQUALITY.has(op.kind) && (callOf(left, PREDICATES) || callOf(right, PREDICATES)) && [left, right].some((x) => unwrap(x).kind === ts.SyntaxKind.FalseKeyword)) report(node, 'negated-acceptance');
    }
    // !isAccepted(r)
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken && callOf(node.operand, PREDICATES)) report(node, 'negated-acceptance');
    // switch (r.status) { case 409: ... }
    if (ts.isSwitchStatement(node) && isStatus(node.expression)) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause) && isHttpStatusLiteral(clause.expression)) report(clause.expression, 'status-compared');
    }
    // String(status).startsWith('4') and the like.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && /^(startsWith|charAt)$/.test(node.expression.name.text)) {
      const target = node.expression.expression;
      if (ts.isCallExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === 'String' && target.arguments.length === 1 && isStatus(target.arguments[0])) report(node, 'status-compared');
    }
    // [200, 201].includes(r.status): a status compared with a list of numbers.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'includes' && node.arguments.length === 1 && isStatus(node.arguments[0])) {
      const list = unwrap(node.expression.expression);
      if (ts.isArrayLiteralExpression(list) && list.elements.some((el) => isHttpStatusLiteral(el as ts.Expression))) report(node, 'status-compared');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
