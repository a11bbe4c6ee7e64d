import { relative, sep } from 'node:path';
import ts from 'typescript';
import { type Layout, resolvedSymbol, sourceFiles } from './code-rules.ts';

/**
 * The use-case rules of docs/architecture.md, read by the compiler: every service takes the context
 * (no parameter typed with the database handles of `db/client.ts`), and route files neither touch
 * the context's database nor emit events (they parse, call a use case and shape the answer).
 * Symbols are resolved, so an alias, a destructured `{ db }` or a `ctx['db']` is seen as well.
 */
export function useCaseViolations(program: ts.Program, layout: Layout): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  const shown = (file: ts.SourceFile, node: ts.Node) =>
    `${relative(layout.source, file.fileName).split(sep).join('/')}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const declaredIn = (symbol: ts.Symbol | undefined, path: string) =>
    symbol?.declarations?.some((declaration) => declaration.getSourceFile().fileName.endsWith(path)) ?? false;
  const isContextDb = (symbol: ts.Symbol | undefined) =>
    symbol?.name === 'db' && declaredIn(symbol, 'src/context.ts');
  const isEventEmit = (symbol: ts.Symbol | undefined) =>
    symbol?.name === 'emit' && declaredIn(symbol, 'src/core/events.ts');

  /** The member a `.name`, `['name']` or destructured `{ name }` reads. */
  const memberRead = (node: ts.Node): ts.Symbol | undefined => {
    if (ts.isPropertyAccessExpression(node)) return checker.getSymbolAtLocation(node.name);
    if (ts.isElementAccessExpression(node)) return checker.getSymbolAtLocation(node.argumentExpression);
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = node.propertyName ?? node.name;
      return ts.isIdentifier(key) ? checker.getTypeAtLocation(node.parent).getProperty(key.text) : undefined;
    }
    return undefined;
  };
  for (const file of sourceFiles(program, layout)) {
    const where = relative(layout.source, file.fileName).split(sep);
    const isService = where[0] === 'modules' || where[0] === 'cli';
    // The health probe (core/health.routes.ts) checks the database itself: it is no use case.
    const isRoutes = where[0] === 'modules' && file.fileName.endsWith('.routes.ts');
    const visit = (node: ts.Node) => {
      if (isService && ts.isParameter(node) && node.type && ts.isTypeReferenceNode(node.type)) {
        const type = node.type.typeName;
        const symbol = ts.isIdentifier(type) ? resolvedSymbol(checker, type) : undefined;
        if (declaredIn(symbol, 'src/db/client.ts'))
          found.push(`${shown(file, node)}: takes a ${symbol?.name} (services take the context)`);
      }
      if (isRoutes) {
        const member = memberRead(node);
        if (isContextDb(member)) found.push(`${shown(file, node)}: a route reaches the database`);
        if (isEventEmit(member)) found.push(`${shown(file, node)}: a route emits an event`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}
