import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import { Verb, requestSubject } from '@openq/contracts';

const COMMANDS_DIR = 'libs/contracts/src/commands';

/** The reply `data` of a command: a TypeScript type only (no runtime schema), and where it is declared. */
export interface ReplyType {
  type: string;
  file: string;
}

/** The repository root: the nearest folder above `from` (tools/ or dist/tools/) with the contracts' sources. */
export function repoRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, COMMANDS_DIR, 'command-registry.ts'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no ${COMMANDS_DIR} above ${from}`);
  }
}

/**
 * Reply types by request subject, read from the source of `defineCommand<Payload, Reply>(Verb.s.v, …)`
 * in libs/contracts/src/commands/*.commands.ts: the reply is a phantom type parameter, so the
 * compiled registry does not carry it.
 */
export function replyTypes(root: string = repoRoot()): Map<string, ReplyType> {
  const found = new Map<string, ReplyType>();
  const dir = join(root, COMMANDS_DIR);
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.commands.ts'))
    .sort()) {
    const source = ts.createSourceFile(
      name,
      readFileSync(join(dir, name), 'utf8'),
      ts.ScriptTarget.ES2022,
      true,
    );
    const imports = importedFrom(source);
    const visit = (node: ts.Node): void => {
      const subject = commandSubject(node);
      if (subject && ts.isCallExpression(node) && node.typeArguments?.length === 2) {
        const type = node.typeArguments[1]!.getText(source);
        const declaredIn = imports.get(type.replace(/\[\]$/, '')) ?? `./${name.replace(/\.ts$/, '')}`;
        found.set(subject, { type, file: posix.join(COMMANDS_DIR, `${declaredIn}.ts`) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** `defineCommand<…>(Verb.<service>.<key>, …)` → its request subject. */
function commandSubject(node: ts.Node): string | null {
  if (!ts.isCallExpression(node) || node.expression.getText() !== 'defineCommand') return null;
  const first = node.arguments[0];
  const path = first?.getText().split('.');
  if (!path || path.length !== 3 || path[0] !== 'Verb') return null;
  const verbs = Verb as Record<
    string,
    Record<string, { service: string; verb: string } | undefined> | undefined
  >;
  const pair = verbs[path[1]!]?.[path[2]!];
  if (!pair) throw new Error(`defineCommand names an unknown ${first!.getText()}`);
  return requestSubject(pair.service, pair.verb);
}

/** Imported name → relative module (`'./questions.views'`). */
function importedFrom(source: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) names.set(element.name.text, statement.moduleSpecifier.text);
  }
  return names;
}
