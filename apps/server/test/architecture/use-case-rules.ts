import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { type Layout, sourceFiles } from './code-rules.ts';

/** The framework's types a function of the HTTP layer receives (a plugin, a hook, a handler, a helper). */
const HTTP_TYPES = new Set(['FastifyInstance', 'FastifyRequest', 'FastifyReply']);

/**
 * The use-case rules of docs/architecture.md, read by the compiler: every service takes the context,
 * never a database handle (a parameter whose type is the context's `db`, however it is written:
 * `DbOrTx`, an alias, `AppContext['db']`, or a part of it: `Pick<…, 'update'>`); and the HTTP layer
 * (any function receiving Fastify's instance, a request or a reply, and what it encloses, whatever
 * its file is called; every function of a `*.routes.ts` or `*.plugin.ts` file) neither reads the
 * context's database nor emits an event: it parses, calls a use case and shapes the answer. `app.ctx`, a `RouteContext`, already refuses both at compile time; this
 * sees what a cast, `contextOf(app)` or a transaction opened in a handler would let through.
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
  const databaseHandle = databaseHandleOf(checker, program, layout);
  // A handle or a part of one: a type assignable to the handle (a transaction, an alias) or one the
  // handle is assignable to (`Pick<Db, 'update'>`, `Partial<Db>`), but for the types everything is
  // assignable to (`unknown`, `object`, `{}`: no member of their own) and type parameters.
  const isDatabaseHandle = (type: ts.Type) =>
    databaseHandle !== undefined &&
    !(
      type.flags &
      (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never | ts.TypeFlags.TypeParameter)
    ) &&
    (checker.isTypeAssignableTo(type, databaseHandle) ||
      (checker.getPropertiesOfType(type).length > 0 && checker.isTypeAssignableTo(databaseHandle, type)));
  const isHttpFunction = (node: ts.Node) =>
    ts.isFunctionLike(node) &&
    node.parameters.some((parameter) => {
      const symbol = checker.getTypeAtLocation(parameter).getSymbol();
      const isFastify = symbol?.declarations?.some((declaration) =>
        declaration.getSourceFile().fileName.includes('/node_modules/fastify/'),
      );
      return symbol !== undefined && HTTP_TYPES.has(symbol.name) && isFastify === true;
    });

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
    // Every function of a routes or plugin file is the HTTP layer, a helper taking the whole context
    // too: `app.ctx` (db and events typed `never`) passes as an `AppContext` into one.
    const isHttpFile = /\.(routes|plugin)\.ts$/.test(file.fileName);
    const visit = (node: ts.Node, isHttp: boolean) => {
      if (isService && ts.isParameter(node) && node.type && isDatabaseHandle(checker.getTypeAtLocation(node)))
        found.push(`${shown(file, node)}: takes a database handle (services take the context)`);
      if (isHttp) {
        const member = memberRead(node);
        if (isContextDb(member)) found.push(`${shown(file, node)}: the HTTP layer reaches the database`);
        if (isEventEmit(member)) found.push(`${shown(file, node)}: the HTTP layer emits an event`);
      }
      const isHttpInside = isHttp || isHttpFunction(node);
      ts.forEachChild(node, (child) => visit(child, isHttpInside));
    };
    visit(file, isHttpFile);
  }
  return found;
}

/** The type of the context's `db` (`AppContext['db']`): what a database handle is assignable to. */
function databaseHandleOf(checker: ts.TypeChecker, program: ts.Program, layout: Layout): ts.Type | undefined {
  const context = program.getSourceFile(join(layout.source, 'context.ts'));
  const declaration = context?.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'AppContext',
  );
  const db = declaration && checker.getTypeAtLocation(declaration.name).getProperty('db');
  return db && checker.getTypeOfSymbol(db);
}
