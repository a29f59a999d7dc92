import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Issue #31: the five services share one shape (docs/conventions.md, "The service template").
 * This spec reads the tree and fails on the first file that leaves it, naming the file and the rule.
 */
const ROOT = resolve(__dirname, '..');
const STATEFUL = ['questions', 'gates', 'context', 'notifier'];
const SLICE_FOLDERS = new Set([
  'commands',
  'queries',
  'domain',
  'store',
  'projections',
  'adapters',
  'migrations',
  'testing',
  '__fixtures__',
]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The contract's Portuguese field names (SPEC), which a domain's own types name in English. */
const WIRE_WORDS =
  /\b(pergunta|sugestao|resposta|afeta|regras|historias|tarefas|autor|motivo|viaAgente|respondidaPor|aceitouSugestao|veredito|resumo|itens|insistir|decisoes|decisoesTotal|overrideDeMantenedor|idadeSegundos)\b/g;

/**
 * Domain files whose job is to build or read a contract value itself, so they use its words: the
 * context's dev kickoff, QA cut and turn context are the contract's reply types (§6.3, §11.2); the
 * pipeline task reads the analyst's questions through the contract's own normalizer.
 */
const BUILDS_WIRE_VALUES = new Set([
  'services/context/src/context/domain/dev-context.ts',
  'services/context/src/context/domain/turn-context.ts',
  'services/context/src/context/domain/decision-selection.ts',
  'services/gates/src/pipeline/domain/pipeline-task.ts',
]);

/** The gateway's folders that are not an HTTP area of their own. */
const GATEWAY_SHARED = new Set(['auth', 'http', 'messaging', 'testing']);

/** The files at a service's source root that wire its slices (they may read a slice's types). */
const isWiring = (file: string) => /[/\\]services[/\\][a-z]+[/\\]src[/\\][a-z-]+\.ts$/.test(file);

const rel = (path: string) => relative(ROOT, path).split(sep).join('/');
const isSpec = (path: string) => /\.spec\.ts$/.test(path);
const tsFiles = (dir: string) => walk(dir).filter((f) => f.endsWith('.ts'));
const serviceSrc = (service: string) => join(ROOT, 'services', service, 'src');
const sourceFiles = STATEFUL.flatMap((s) => tsFiles(serviceSrc(s)));
const read = (path: string) => readFileSync(path, 'utf8');

/** A slice: a folder holding `<folder>.module.ts`. A sub-slice: a folder inside one holding a controller. */
function slicesOf(service: string): string[] {
  const src = serviceSrc(service);
  return readdirSync(src)
    .map((name) => join(src, name))
    .filter(
      (path) => statSync(path).isDirectory() && existsSync(join(path, `${path.split(sep).pop()}.module.ts`)),
    );
}

const holdsController = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.controller.ts'));

/** Relative imports of a file, resolved to absolute paths (without extension). */
function relativeImports(file: string): string[] {
  const specifiers = [...read(file).matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g)].map(
    (m) => m[1]!,
  );
  return specifiers.map((s) => resolve(dirname(file), s));
}

describe('the service template (docs/conventions.md)', () => {
  it.each(STATEFUL)(
    '%s: its source root holds main.ts, the service and config files, and slices',
    (service) => {
      const src = serviceSrc(service);
      const slices = new Set(slicesOf(service));
      const strays = readdirSync(src)
        .map((name) => join(src, name))
        .filter((path) => {
          const name = path.split(sep).pop()!;
          if (statSync(path).isDirectory()) return !slices.has(path);
          return !/^(main|[a-z-]+-service|[a-z-]+-config)(\.spec)?\.ts$/.test(name);
        });
      expect(slices.size).toBeGreaterThan(0);
      expect(strays.map(rel)).toEqual([]);
    },
  );

  it.each(STATEFUL)(
    '%s: a slice holds only the template folders or sub-slices of the same shape',
    (service) => {
      const strays: string[] = [];
      const check = (slice: string) => {
        for (const name of readdirSync(slice)) {
          const path = join(slice, name);
          if (!statSync(path).isDirectory() || SLICE_FOLDERS.has(name)) continue;
          if (holdsController(path)) check(path);
          else strays.push(rel(path));
        }
      };
      slicesOf(service).forEach(check);
      expect(strays).toEqual([]);
    },
  );

  it('every message controller is named for its kind and holds that kind only', () => {
    const wrong = sourceFiles
      .filter((f) => !isSpec(f))
      .flatMap((file) => {
        const text = read(file);
        const events = /@EventPattern\(/.test(text);
        const requests = /@MessagePattern\(/.test(text);
        const name = file.split(sep).pop()!;
        if (!events && !requests && !name.endsWith('.controller.ts')) return [];
        if (/^[a-z-]+\.events\.controller\.ts$/.test(name) && events && !requests) return [];
        if (/^[a-z-]+\.requests\.controller\.ts$/.test(name) && requests && !events) return [];
        return [`${rel(file)} (@EventPattern: ${events}, @MessagePattern: ${requests})`];
      });
    expect(wrong).toEqual([]);
  });

  it('commands/ holds one folder per use case, each with its <use-case>.handler.ts', () => {
    const dirs = [...new Set(sourceFiles.map(dirname))].filter((d) => d.endsWith(`${sep}commands`));
    const wrong = dirs.flatMap((commands) =>
      readdirSync(commands).flatMap((name) => {
        const path = join(commands, name);
        if (!statSync(path).isDirectory()) return [`${rel(path)} (a file directly in commands/)`];
        return existsSync(join(path, `${name}.handler.ts`)) ? [] : [`${rel(path)} (no ${name}.handler.ts)`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("a slice's domain/ is imported only from inside that slice (its sub-slices included)", () => {
    const wrong = sourceFiles.flatMap((file) =>
      relativeImports(file).flatMap((target) => {
        const at = target.lastIndexOf(`${sep}domain`);
        if (at < 0 || !target.includes(`${sep}services${sep}`)) return [];
        // The top-level slice (`services/<service>/src/<slice>`): a sub-slice's domain is its slice's.
        const owner = target
          .split(sep)
          .slice(0, target.split(sep).lastIndexOf('src') + 2)
          .join(sep);
        if (file.startsWith(owner + sep) || isWiring(file)) return [];
        return [`${rel(file)} imports ${rel(target)}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('a testing/ folder is imported only by tests and other test helpers', () => {
    const wrong = sourceFiles
      .filter(
        (f) => !isSpec(f) && !f.includes(`${sep}testing${sep}`) && !f.includes(`${sep}__fixtures__${sep}`),
      )
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => target.includes(`${sep}testing${sep}`) || target.endsWith(`${sep}testing`))
          .map((target) => `${rel(file)} imports ${rel(target)}`),
      );
    expect(wrong).toEqual([]);
  });

  it.each(STATEFUL)('%s: each migrations/ folder is listed once, in its index.ts', (service) => {
    const folders = [...new Set(tsFiles(serviceSrc(service)).map(dirname))].filter((d) =>
      d.endsWith(`${sep}migrations`),
    );
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      const index = read(join(folder, 'index.ts'));
      const files = readdirSync(folder).filter((f) => /^\d+-.+\.ts$/.test(f) && !isSpec(f));
      expect(files.filter((f) => !index.includes(`./${f.replace(/\.ts$/, '')}'`))).toEqual([]);
    }
    const outside = tsFiles(serviceSrc(service))
      .filter((f) => !f.includes(`${sep}migrations${sep}`))
      .flatMap((file) =>
        relativeImports(file)
          .filter((t) => /[/\\]migrations[/\\]\d+-/.test(t))
          .map((t) => `${rel(file)} imports ${rel(t)}`),
      );
    expect(outside).toEqual([]);
  });

  it('every domain that decides a state change exports a Decider of the kit, specified given/when/then', () => {
    const domainFiles = sourceFiles.filter((f) => f.includes(`${sep}domain${sep}`) && !isSpec(f));
    const specsOf = (dir: string) =>
      readdirSync(dir)
        .filter(isSpec)
        .map((f) => read(join(dir, f)));
    const problems: string[] = [];
    const deciders: string[] = [];
    for (const file of domainFiles) {
      const text = read(file);
      const names = [...text.matchAll(/export (?:const|function) (\w+)(?:\([^)]*\))?\s*:\s*Decider</g)].map(
        (m) => m[1]!,
      );
      if (/export (function decide\b|const decide\b)/.test(text) && names.length === 0)
        problems.push(`${rel(file)} exports decide but no Decider`);
      for (const name of names) {
        deciders.push(`${rel(file)}#${name}`);
        if (!specsOf(dirname(file)).some((spec) => new RegExp(`deciderSpec\\(\\s*${name}\\b`).test(spec)))
          problems.push(`${rel(file)}: no spec beside it runs deciderSpec(${name}, …)`);
      }
    }
    expect(problems).toEqual([]);
    for (const service of STATEFUL) {
      expect(deciders.filter((d) => d.startsWith(`services/${service}/`))).not.toEqual([]);
    }
  });

  it("a domain's own names are English: the contract's Portuguese words stay on the wire", () => {
    const wrong = sourceFiles
      .filter(
        (f) => f.includes(`${sep}domain${sep}`) && !isSpec(f) && !f.includes(`${sep}__fixtures__${sep}`),
      )
      .filter((f) => !BUILDS_WIRE_VALUES.has(rel(f)))
      .flatMap((file) => {
        // Identifiers only: string literals (reason codes, texts) and comments are the wire's words.
        const code = read(file)
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\/\/.*$/gm, '')
          .replace(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "''");
        const words = [...code.matchAll(WIRE_WORDS)].map((m) => m[0]);
        return words.length > 0 ? [`${rel(file)}: ${[...new Set(words)].join(', ')}`] : [];
      });
    expect(wrong).toEqual([]);
  });

  it('the gateway is a stateless edge: HTTP areas, no database library, no message controller', () => {
    const src = serviceSrc('gateway');
    const files = tsFiles(src);
    expect(files.filter((f) => /@openq\/persistence|from 'typeorm'/.test(read(f))).map(rel)).toEqual([]);
    expect(files.filter((f) => /@(EventPattern|MessagePattern)\(/.test(read(f))).map(rel)).toEqual([]);
    const areas = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory());
    const strays = areas.filter(
      (name) => !GATEWAY_SHARED.has(name) && !walk(join(src, name)).some((f) => f.endsWith('.controller.ts')),
    );
    expect(strays).toEqual([]);
    const testHelpers = files
      .filter((f) => !isSpec(f) && !f.includes(`${sep}testing${sep}`))
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => target.includes(`${sep}testing${sep}`) || target.endsWith(`${sep}testing`))
          .map((target) => `${rel(file)} imports ${rel(target)}`),
      );
    expect(testHelpers).toEqual([]);
  });
});
