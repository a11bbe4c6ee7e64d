import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The server's layering rules, read by the TypeScript compiler rather than by patterns: imports are
 * resolved to files (aliases, namespaces, `export … from`, dynamic `import()` and type imports
 * alike) and a table is known by its type (drizzle's), however it is named, re-exported or wrapped.
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

/** The symbol an import stands for, or the symbol itself. */
function aliased(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** A namespace import (`import * as outbox`), whose members are the module's own functions. */
function isNamespace(symbol: ts.Symbol | undefined): boolean {
  return symbol?.declarations?.some(ts.isNamespaceImport) ?? false;
}

/**
 * The SQL name of the table a type is, or undefined: drizzle's tables carry `_: { brand: 'Table',
 * name }` in their type, however the value was named, re-exported or wrapped (`tables.users`).
 */
function tableNameOf(checker: ts.TypeChecker, type: ts.Type): string | undefined {
  const meta = type.getProperty('_');
  if (!meta) return undefined;
  const metaType = checker.getTypeOfSymbol(meta);
  const brand = metaType.getProperty('brand');
  const name = metaType.getProperty('name');
  if (!brand || !name) return undefined;
  const brandType = checker.getTypeOfSymbol(brand);
  const nameType = checker.getTypeOfSymbol(name);
  const isTable = brandType.isStringLiteral() && brandType.value === 'Table';
  return isTable && nameType.isStringLiteral() ? nameType.value : undefined;
}

/**
 * Which module declares each table, by SQL name: the module whose file creates it, a top-level
 * constant initialised by a call (`pgTable(...)`) whose type is a table. A name given to a table
 * elsewhere (`export const accounts = users`) creates nothing.
 */
function tableOwners(checker: ts.TypeChecker, program: ts.Program, layout: Layout): Map<string, Module> {
  const owners = new Map<string, Module>();
  for (const file of sourceFiles(program, layout))
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!declaration.initializer || !ts.isCallExpression(declaration.initializer)) continue;
        const name = tableNameOf(checker, checker.getTypeAtLocation(declaration.name));
        if (name) owners.set(name, moduleOf(layout, file.fileName));
      }
    }
  return owners;
}

const WRITE_METHODS = new Set(['insert', 'update', 'delete']);
/** The SQL verbs that write a table, the table named next (`truncate table only`, as Postgres has it). */
const WRITE_VERB = String.raw`\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?(?:\s+only)?)`;
const RAW_WRITE = new RegExp(`${WRITE_VERB}\\s*$`, 'i');
/**
 * A write naming its table in the SQL text itself: `delete from users`, `update "users"`, with its
 * schema or not (`update public.users`, `delete from "public"."users"`), `truncate users`.
 */
const RAW_WRITE_OF = new RegExp(
  `${WRITE_VERB}\\s+(?:"?[a-z_][a-z0-9_]*"?\\s*\\.\\s*)?"?([a-z_][a-z0-9_]*)"?`,
  'gi',
);

/** The expression inside parentheses, `as`, `!` and `satisfies`: what `(users as typeof users)!` is. */
function unwrapped(expression: ts.Expression): ts.Expression {
  let inner = expression;
  while (
    ts.isParenthesizedExpression(inner) ||
    ts.isAsExpression(inner) ||
    ts.isNonNullExpression(inner) ||
    ts.isSatisfiesExpression(inner) ||
    ts.isTypeAssertionExpression(inner)
  )
    inner = inner.expression;
  return inner;
}

/** The text of a string literal or of a template's literal parts, where SQL could name a table. */
function literalText(node: ts.Node): string | undefined {
  return ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateHead(node) ||
    ts.isTemplateMiddle(node) ||
    ts.isTemplateTail(node)
    ? node.text
    : undefined;
}

/**
 * Every write of a table from outside the module that declares it: drizzle's `.insert/.update/.delete`,
 * raw SQL naming the table object (`update ${table}`) or the table itself (`delete from users`), and
 * a table handed to any function of ours (a helper that writes what it is given). A table is known
 * by its type, not its name, so an alias, a re-export under another name or a table wrapped in an
 * object is seen, through `as`, `!`, `satisfies` and parentheses. A module may hand its own tables to `core/`.
 */
export function writesOutsideOwner(program: ts.Program, layout: Layout): string[] {
  const checker = program.getTypeChecker();
  const owners = tableOwners(checker, program, layout);
  const shown = (file: string) => relative(layout.source, file).split(sep).join('/');
  const found: string[] = [];
  // A function of ours (not drizzle's `from`, `eq`, joins…) may write whatever table it is handed.
  // Its name tells (`claim(t)`, `outbox.claim(t)` through a namespace import): resolving a method's
  // object (a query builder's chain) would cost a type inference per call.
  const isOwnFunction = (call: ts.CallExpression) => {
    const callee = call.expression;
    const name =
      ts.isIdentifier(callee) ||
      (ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        isNamespace(checker.getSymbolAtLocation(callee.expression)))
        ? callee
        : undefined;
    const symbol = name && aliased(checker, checker.getSymbolAtLocation(name));
    return (
      symbol?.declarations?.some((declaration) =>
        declaration.getSourceFile().fileName.startsWith(layout.source),
      ) ?? false
    );
  };
  // Only names and members can stand for a table: other expressions cost no type inference.
  const tableOf = (expression: ts.Expression) =>
    ts.isIdentifier(expression) ||
    ts.isPropertyAccessExpression(expression) ||
    ts.isElementAccessExpression(expression)
      ? tableNameOf(checker, checker.getTypeAtLocation(expression))
      : undefined;
  // A table lives at a module's top level: an argument that is a local or a parameter (most are)
  // is not typed, which keeps the rule to seconds over the server.
  const isModuleLevel = (argument: ts.Expression): boolean => {
    let root = unwrapped(argument);
    while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root)) root = root.expression;
    const symbol = ts.isIdentifier(root) ? checker.getSymbolAtLocation(root) : undefined;
    return (
      symbol?.declarations?.some(
        (declaration) =>
          ts.isImportSpecifier(declaration) ||
          ts.isNamespaceImport(declaration) ||
          (ts.isVariableDeclaration(declaration) && ts.isSourceFile(declaration.parent.parent.parent)),
      ) ?? false
    );
  };
  for (const file of sourceFiles(program, layout)) {
    const caller = moduleOf(layout, file.fileName);
    const foreignOwner = (table: string | undefined) => {
      const owner = table === undefined ? undefined : owners.get(table);
      return owner && owner !== caller ? owner : undefined;
    };
    const report = (node: ts.Node, how: string, what: string, owner: Module) => {
      const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${shown(file.fileName)}:${line}: ${how} ${what} (owned by ${owner})`);
    };
    const reportTable = (node: ts.Node, how: string, written: ts.Expression) => {
      const table = unwrapped(written);
      const owner = foreignOwner(tableOf(table));
      if (owner) report(node, how, table.getText(), owner);
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
        const [first] = node.arguments;
        if (method && WRITE_METHODS.has(method) && first) reportTable(node, method, first);
        else {
          const handed = isOwnFunction(node) ? node.arguments.filter(isModuleLevel) : [];
          for (const argument of handed) reportTable(node, 'hands', argument);
        }
      }
      if (ts.isTemplateExpression(node)) {
        let before = node.head.text;
        for (const span of node.templateSpans) {
          if (RAW_WRITE.test(before)) reportTable(node, 'raw SQL write of', span.expression);
          before = span.literal.text;
        }
      }
      const text = literalText(node);
      for (const [, table] of text === undefined ? [] : text.matchAll(RAW_WRITE_OF)) {
        const owner = foreignOwner(table?.toLowerCase());
        if (owner && table) report(node, 'raw SQL write of', table, owner);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/**
 * Uses of the given functions (named in the file that declares them, however imported: an alias, a
 * namespace, a re-export) outside their own module and the one module allowed to use them, as
 * `file:line: uses name (only caller)` lines. It keeps a column of one table to one writer's logic
 * (the PC binding's `users.hwid`, docs/architecture.md, "A customer's PC").
 */
export function usesOutside(
  program: ts.Program,
  layout: Layout,
  rule: { declaredIn: string; names: readonly string[]; caller: Module },
): string[] {
  const checker = program.getTypeChecker();
  const declaring = moduleOf(layout, join(layout.source, rule.declaredIn));
  const isGuarded = (symbol: ts.Symbol | undefined) =>
    symbol !== undefined &&
    rule.names.includes(symbol.name) &&
    (symbol.declarations?.some((declaration) =>
      declaration.getSourceFile().fileName.endsWith(rule.declaredIn),
    ) ??
      false);
  const found: string[] = [];
  for (const file of sourceFiles(program, layout)) {
    const caller = moduleOf(layout, file.fileName);
    if (caller === declaring || caller === rule.caller) continue;
    const visit = (node: ts.Node) => {
      // A name, or a namespace's member (`users.claimHwid`): resolving other members would type
      // their objects, for nothing.
      const isName =
        ts.isIdentifier(node) &&
        !ts.isImportSpecifier(node.parent) &&
        !ts.isExportSpecifier(node.parent) &&
        !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node);
      const isNamespaceMember =
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        isNamespace(checker.getSymbolAtLocation(node.expression));
      const name = isNamespaceMember ? node.name : isName ? node : undefined;
      const symbol = name && aliased(checker, checker.getSymbolAtLocation(name));
      if (name && isGuarded(symbol)) {
        const line = file.getLineAndCharacterOfPosition(name.getStart()).line + 1;
        const shown = relative(layout.source, file.fileName).split(sep).join('/');
        found.push(`${shown}:${line}: uses ${symbol?.name} (only ${rule.caller})`);
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
