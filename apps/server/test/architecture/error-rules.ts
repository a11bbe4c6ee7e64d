import { relative, sep } from 'node:path';
import ts from 'typescript';
import { type Layout, sourceFiles } from './code-rules.ts';

/**
 * The error rule of docs/architecture.md ("Errors"), read by the compiler: the domain modules throw
 * `AppError('CODE')`, whose message comes from the contracts' table, never a bare `Error` (nor a
 * `TypeError`, `RangeError`…) with words of its own. The constructor is resolved by its type, so
 * `Error('…')` without `new`, an alias (`const Failure = Error`) or an error built to be rejected is
 * seen as well; a class of ours that extends `Error` (`AppError`, `StartupError`) is not bare. The
 * command-line tasks (`cli/`) print plain errors to the operator's terminal and are not checked.
 */
export function bareErrors(program: ts.Program, layout: Layout): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  const isStandardError = (callee: ts.Expression): string | undefined => {
    const symbol = checker.getTypeAtLocation(callee).getSymbol();
    const declaredInLib = symbol?.declarations?.some((declaration) =>
      program.isSourceFileDefaultLibrary(declaration.getSourceFile()),
    );
    const name = symbol?.name.replace(/Constructor$/, '');
    return declaredInLib && name?.endsWith('Error') ? name : undefined;
  };
  for (const file of sourceFiles(program, layout)) {
    const where = relative(layout.source, file.fileName).split(sep);
    if (where[0] !== 'modules') continue;
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
        const name = isStandardError(node.expression);
        if (name) {
          const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          found.push(`${where.join('/')}:${line}: a bare ${name} (throw AppError('CODE'))`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}
