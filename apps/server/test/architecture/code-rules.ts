import { dirname, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The server's layering rules, read by the TypeScript compiler rather than by patterns: imports are
 * resolved to files (aliases, namespaces, `export … from`, dynamic `import()` and type imports
 * alike) and every table reference is resolved to the `pgTable` it names, however it is written.
 */
export interface Layout {
  /** The server's `src` folder. */
  source: string;
}

type Module = string;

/** `modules/<name>` for a file inside a domain module; the folder of the file otherwise. */
function moduleOf(layout: Layout, file: string): Module {
  const parts = relative(layout.source, file).split(sep);
  return parts[0] === 'modules' && parts.length > 2
    ? `modules/${parts[1]}`
    : dirname(relative(layout.source, file));
}

const isProduction = (file: string) => !/\.test\.tsx?$|\.d\.ts$/.test(file);

/** Every import of a file, resolved to the file it names (undefined: a package). */
function importsOf(
  program: ts.Program,
  file: ts.SourceFile,
): { specifier: string; target: string | undefined }[] {
  const found: { specifier: string; target: string | undefined }[] = [];
  const visit = (node: ts.Node) => {
    const literal =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0]
          : ts.isImportTypeNode(node) &&
              ts.isLiteralTypeNode(node.argument) &&
              ts.isStringLiteral(node.argument.literal)
            ? node.argument.literal
            : undefined;
    if (literal) {
      const host = hosts.get(program) ?? ts.sys;
      const target = ts.resolveModuleName(literal.text, file.fileName, program.getCompilerOptions(), host)
        .resolvedModule?.resolvedFileName;
      found.push({ specifier: literal.text, target });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Imports from `from` files that land in files `to` accepts, as `file -> target` lines. */
export function forbiddenImports(
  program: ts.Program,
  layout: Layout,
  rule: { from: (file: string) => boolean; to: (target: string) => boolean },
): string[] {
  const shown = (file: string) => relative(layout.source, file).split(sep).join('/');
  return sourceFiles(program, layout).flatMap((file) =>
    rule.from(file.fileName)
      ? importsOf(program, file).flatMap(({ target }) =>
          target && rule.to(target) ? [`${shown(file.fileName)} -> ${shown(target)}`] : [],
        )
      : [],
  );
}

export function sourceFiles(program: ts.Program, layout: Layout): ts.SourceFile[] {
  return program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(layout.source) && isProduction(file.fileName));
}

/** The symbol an identifier stands for, through import aliases. */
export function resolvedSymbol(checker: ts.TypeChecker, identifier: ts.Identifier): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(identifier);
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/**
 * The file declaring the `pgTable(...)` an expression stands for, or undefined: a name (imported
 * under any alias) or a namespace import's member (`t.users`). Only names are resolved, never types:
 * a column such as `users.id` is not a table and costs no type inference.
 */
function tableDeclaredBy(checker: ts.TypeChecker, expression: ts.Expression): string | undefined {
  let symbol: ts.Symbol | undefined;
  if (ts.isIdentifier(expression)) symbol = resolvedSymbol(checker, expression);
  else if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    const namespace = resolvedSymbol(checker, expression.expression);
    if (namespace && namespace.flags & ts.SymbolFlags.Module) {
      const member = checker
        .getExportsOfModule(namespace)
        .find((entry) => entry.name === expression.name.text);
      symbol = member && member.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(member) : member;
    }
  }
  const declaration = symbol?.valueDeclaration;
  if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
  const initializer = declaration.initializer;
  const isTable =
    ts.isCallExpression(initializer) &&
    ts.isIdentifier(initializer.expression) &&
    initializer.expression.text === 'pgTable';
  return isTable ? declaration.getSourceFile().fileName : undefined;
}

const WRITE_METHODS = new Set(['insert', 'update', 'delete']);
const RAW_WRITE = /\b(insert\s+into|update|delete\s+from)\s*$/i;

/**
 * Every write of a table from outside the module that declares it: drizzle's `.insert/.update/.delete`,
 * raw SQL naming the table object (`update ${table}`), and a table handed to any function (a helper
 * that writes what it is given). A module may hand its own tables to `core/`.
 */
export function writesOutsideOwner(program: ts.Program, layout: Layout): string[] {
  const checker = program.getTypeChecker();
  const shown = (file: string) => relative(layout.source, file).split(sep).join('/');
  const found: string[] = [];
  // A function of ours (not drizzle's `from`, `eq`, joins…) may write whatever table it is handed.
  const isOwnFunction = (call: ts.CallExpression) =>
    checker.getResolvedSignature(call)?.declaration?.getSourceFile().fileName.startsWith(layout.source) ??
    false;
  for (const file of sourceFiles(program, layout)) {
    const caller = moduleOf(layout, file.fileName);
    const foreignTable = (table: ts.Expression) => {
      const owner = tableDeclaredBy(checker, table);
      return owner && moduleOf(layout, owner) !== caller ? owner : undefined;
    };
    const report = (node: ts.Node, how: string, table: ts.Expression) => {
      const owner = foreignTable(table);
      if (!owner) return;
      const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(
        `${shown(file.fileName)}:${line}: ${how} ${table.getText()} (owned by ${moduleOf(layout, owner)})`,
      );
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
        const [first] = node.arguments;
        if (method && WRITE_METHODS.has(method) && first) report(node, method, first);
        else {
          const handed = node.arguments.filter((argument) => foreignTable(argument));
          if (handed.length > 0 && isOwnFunction(node))
            for (const argument of handed) report(node, 'hands', argument);
        }
      }
      if (ts.isTemplateExpression(node)) {
        let before = node.head.text;
        for (const span of node.templateSpans) {
          if (RAW_WRITE.test(before)) report(node, 'raw SQL write of', span.expression);
          before = span.literal.text;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** The host each program was made with: imports are resolved the way the program saw its files. */
const hosts = new WeakMap<ts.Program, ts.ModuleResolutionHost>();

const ancestorsOf = (file: string): string[] => {
  const folders: string[] = [];
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) folders.push(folder);
  return folders;
};

/** A program over the given files with the project's compiler options (files may be virtual). */
export function programOf(rootNames: string[], virtualFiles: Record<string, string> = {}): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (name) => virtualFiles[name] ?? read(name);
  host.fileExists = (name) => name in virtualFiles || exists(name);
  const virtualFolders = new Set(Object.keys(virtualFiles).flatMap((name) => ancestorsOf(name)));
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => virtualFolders.has(name) || (directoryExists?.(name) ?? false);
  host.getSourceFile = (name, languageVersion) => {
    const text = host.readFile(name);
    return text === undefined ? undefined : ts.createSourceFile(name, text, languageVersion, true);
  };
  const program = ts.createProgram({ rootNames, options, host });
  hosts.set(program, host);
  return program;
}
