/**
 * The lint behind "no inline status test remains" (issue 19): what an answer is (accepted, refused, throttled, a
 * server error, not the API) is decided in one place, harness/answers.ts. A suite that compares a status with a range
 * (`status >= 400 && status < 500`, `status < 300`, `Math.floor(status / 100)`) decides it again, and sooner or later
 * differently (a 429 counted as a refusal, a 500 as one). Comparing with one status the document or the profile names
 * (`status === 409`) is a rule of that interface, and stays allowed.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export interface InlineStatusTest {
  file: string;
  line: number;
  text: string;
}

const RELATIONAL = new Set([ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken]);

/** A status-like operand: an identifier or member whose name ends in "status" (reply.status, control.status, status). */
function isStatus(e: ts.Expression): boolean {
  const inner = ts.isParenthesizedExpression(e) ? e.expression : e;
  const name = ts.isIdentifier(inner) ? inner.text : ts.isPropertyAccessExpression(inner) ? inner.name.text : undefined;
  return name !== undefined && /status$/i.test(name);
}

const isHttpStatusLiteral = (e: ts.Expression) => ts.isNumericLiteral(e) && Number(e.text) >= 100 && Number(e.text) <= 599;

/** The inline status tests of one TypeScript source. */
export function inlineStatusTests(file: string, source = readFileSync(file, 'utf8')): InlineStatusTest[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: InlineStatusTest[] = [];
  const report = (node: ts.Node) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push({ file, line: line + 1, text: node.getText(sf).replace(/\s+/g, ' ').slice(0, 120) });
  };
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node)) {
      const { left, right, operatorToken: op } = node;
      // status < 300, 400 <= status: a range of statuses.
      if (RELATIONAL.has(op.kind) && ((isStatus(left) && isHttpStatusLiteral(right)) || (isStatus(right) && isHttpStatusLiteral(left)))) report(node);
      // status / 100: the class of a status.
      else if (op.kind === ts.SyntaxKind.SlashToken && isStatus(left) && ts.isNumericLiteral(right) && right.text === '100') report(node);
    }
    // String(status).startsWith('4') and the like.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && /^(startsWith|charAt)$/.test(node.expression.name.text)) {
      const target = node.expression.expression;
      if (ts.isCallExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === 'String' && target.arguments.length === 1 && isStatus(target.arguments[0])) report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
