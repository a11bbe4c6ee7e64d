import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The lists the docs give of the code, compared with the code (docs/architecture.md, "Packages"):
 * counts written in prose ("six loops", "four caches") went stale each time the code grew. A list
 * the docs keep is the paragraph under a `<!-- docs-truth: <list> -->` comment; its items are the
 * code spans of that paragraph that look like the list's items. The code side is read by the
 * TypeScript parser from the server's production sources, wherever a declaration moves.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (relative: string) => readFileSync(path.join(root, relative), 'utf8');

const parse = (file: string) => ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
const serverSources = readdirSync(path.join(root, 'apps/server/src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => parse(path.join('apps/server/src', file)));

/** Every node of `files` that `pick` answers something for. */
function collect<T>(files: ts.SourceFile[], pick: (node: ts.Node) => T | undefined): T[] {
  const found: T[] = [];
  const visit = (node: ts.Node) => {
    const picked = pick(node);
    if (picked !== undefined) found.push(picked);
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(file);
  return found;
}

const textOf = (node: ts.Node | undefined) =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isIdentifier(node))
    ? node.text
    : undefined;

/** The items of the list `name` in `doc`: code spans of the paragraph under its marker, matching `item`. */
function listedIn(doc: string, name: string, item: RegExp): string[] {
  const lines = read(doc).split('\n');
  const marker = lines.findIndex((line) => line.trim() === `<!-- docs-truth: ${name} -->`);
  expect(marker, `${doc} keeps the list "${name}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > marker && line.trim() === '');
  const paragraph = lines.slice(marker + 1, end === -1 ? undefined : end).join('\n');
  // A code span may run over a line break, which Markdown reads as a space.
  return [...paragraph.matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!.replace(/\s+/g, ' '))
    .filter((span) => item.test(span));
}

/** Sorted once each; a name the parser could not read stays undefined and fails the comparison. */
const sorted = (names: Iterable<string | undefined>) => [...new Set(names)].sort();

/** The string values of the properties called `key` in `files`. */
const valuesOf = (files: ts.SourceFile[], key: string) =>
  collect(files, (node) =>
    ts.isPropertyAssignment(node) && textOf(node.name) === key ? node.initializer : undefined,
  );

describe('the lists in the docs name what the code has', () => {
  it('every domain event (docs/architecture.md, "Events")', () => {
    const events = collect(serverSources, (node) =>
      ts.isInterfaceDeclaration(node) && node.name.text === 'DomainEvents'
        ? node.members.map((member) => textOf(member.name))
        : undefined,
    ).flat();
    expect(events.length).toBeGreaterThan(0);
    expect(sorted(listedIn('docs/architecture.md', 'domain events', /^[a-z]\w*\.[a-z]\w*$/))).toEqual(
      sorted(events),
    );
  });

  it('every background loop of the node and of the real-time module, by the name its logs give', () => {
    // `loops.every('name', everyMs, run)` in the node's wiring (Array's `every` takes no third argument).
    const nodeLoops = collect(serverSources, (node) =>
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'every' &&
      node.arguments.length === 3
        ? textOf(node.arguments[0])
        : undefined,
    );
    // `{ name: '…', everyMs, run }`: the loops a module hands to the wiring.
    const handedLoops = collect(serverSources, (node) => {
      if (!ts.isObjectLiteralExpression(node)) return undefined;
      const property = (key: string) =>
        node.properties.find((candidate) => candidate.name && textOf(candidate.name) === key);
      const name = property('name');
      return name && ts.isPropertyAssignment(name) && property('everyMs') && property('run')
        ? textOf(name.initializer)
        : undefined;
    });
    const named = /\s/;
    expect(nodeLoops.length).toBeGreaterThan(0);
    expect(sorted(listedIn('docs/architecture.md', 'node loops', named))).toEqual(sorted(nodeLoops));
    expect(sorted(listedIn('docs/architecture.md', 'real-time loops', named))).toEqual(sorted(handedLoops));
  });

  it('every cache the context carries (decision 007)', () => {
    const caches = collect(serverSources, (node) =>
      ts.isFunctionDeclaration(node) && node.name && /^create\w+Cache$/.test(node.name.text)
        ? node.name.text
        : undefined,
    );
    expect(caches.length).toBeGreaterThan(0);
    expect(
      sorted(
        listedIn('docs/decisions/007-server-wiring-and-table-ownership.md', 'caches', /^create\w+Cache$/),
      ),
    ).toEqual(sorted(caches));
  });

  it('every function that takes only the database, Pick<AppContext, "db"> (docs/architecture.md, "One calling convention")', () => {
    const takesDbOnly = (parameter: ts.ParameterDeclaration | undefined) => {
      const type = parameter?.type;
      if (!type || !ts.isTypeReferenceNode(type) || textOf(type.typeName) !== 'Pick') return false;
      const [context, keys] = type.typeArguments ?? [];
      return (
        context !== undefined &&
        ts.isTypeReferenceNode(context) &&
        textOf(context.typeName) === 'AppContext' &&
        keys !== undefined &&
        ts.isLiteralTypeNode(keys) &&
        textOf(keys.literal) === 'db'
      );
    };
    const functions = collect(serverSources, (node) =>
      ts.isFunctionDeclaration(node) && node.name && takesDbOnly(node.parameters[0])
        ? node.name.text
        : undefined,
    );
    expect(functions.length).toBeGreaterThan(0);
    expect(sorted(listedIn('docs/architecture.md', 'db-only functions', /^[a-z]\w+$/))).toEqual(
      sorted(functions),
    );
  });

  it('every test project (docs/architecture.md, "How `npm test` runs")', () => {
    const projects = valuesOf([parse('vitest.config.ts')], 'projects')
      .flatMap((list) => (ts.isArrayLiteralExpression(list) ? list.elements.map(textOf) : []))
      .map((project) => parse(project?.endsWith('.ts') ? project : `${project}/vitest.config.ts`));
    const names = valuesOf(projects, 'name').map(textOf);
    expect(names).toHaveLength(projects.length);
    expect(sorted(listedIn('docs/architecture.md', 'test projects', /^[a-z0-9]+$/))).toEqual(sorted(names));
  });
});
