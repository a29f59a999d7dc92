import { OpenqEvent, type QuestionAuthor } from '@openq/contracts';
import { DEV_JWT_SECRET, mintDevToken, type DevTokenRole } from '@openq/platform';
import { waitFor } from '@openq/testing';
import { EXEC_AUTHOR, ask, publishVerdict, startGate } from './gates';
import type { Stack } from './stack';

/**
 * Issue #18 a realistic inbox for the triage tests (and anyone else's): 200 questions over three
 * projects, declared through the real stack — the engine's internal route (`origin: tool`, one
 * request each, many at once: the questions service commits them in groups) and QA verdicts that
 * park gates (`autor: qa-agent`). Several session authors, asking roles, tasks, stories and rules;
 * every other question has a suggestion; Portuguese and English texts. Deterministic: the same
 * seed gives the same texts and metadata, so a test derives what a filter must find from
 * `questions` instead of hard-coding counts.
 */

export const SEED_PROJECTS = ['acme-web', 'acme-api', 'acme-data'] as const;
export type SeedProject = (typeof SEED_PROJECTS)[number];

/** The people whose sessions asked (each answers their own; the others see them inert). */
export const SEED_PEOPLE = ['ana', 'bruno', 'carla'] as const;

/** Tasks whose QA gate is parked on a question (two per project, QA's question authored by `ana`). */
export const SEED_PARKED_TASKS = ['T-90', 'T-91'] as const;

export interface SeededQuestion {
  projectId: SeedProject;
  questionId: string;
  pergunta: string;
  sugestao: string | null;
  autor: QuestionAuthor;
  sessionAuthorId: string;
  tarefas: string[];
  historias: string[];
  regras: string[];
  /** Which text it was made from (search tests look words up by theme). */
  theme: Theme;
  /** The task whose gate it parks, for QA's questions. */
  parks: string | null;
}

export interface InboxSeed {
  questions: SeededQuestion[];
  of(projectId: SeedProject): SeededQuestion[];
  /** A token whose `roles` claim gives `user` a role on each of `projects` (all three by default). */
  token(user: string, projects?: readonly string[], role?: DevTokenRole): string;
}

type Theme = (typeof THEMES)[number]['theme'];

const THEMES = [
  { theme: 'decisao', text: (x: string) => `Qual decisão tomamos sobre o cache de ${x}?` },
  { theme: 'notificacao', text: (x: string) => `As notificações de ${x} devem sair por e-mail ou push?` },
  { theme: 'cpf', text: (x: string) => `Podemos remover a validação de CPF no cadastro de ${x}?` },
  { theme: 'archived', text: (x: string) => `Should archived ${x} return 410 Gone or 404?` },
  { theme: 'payment', text: (x: string) => `Which payment provider do we integrate first for ${x}?` },
  { theme: 'audit', text: (x: string) => `Do we keep the audit logs of ${x} for 90 or 365 days?` },
  { theme: 'relatorio', text: (x: string) => `O relatório mensal de ${x} precisa de paginação?` },
  { theme: 'export', text: (x: string) => `Can the ${x} export run overnight instead of on demand?` },
] as const;
const SUBJECTS = ['clientes', 'pedidos', 'faturas', 'contratos', 'invoices', 'orders', 'customers'];
const SUGGESTIONS = ['Sim, com revisão semanal', 'Prefer the simpler option for now', 'Manter como está'];
const ASKERS: QuestionAuthor[] = ['criativo', 'po', 'arquiteto', 'dev_lead'];
/** Questions per project, QA's parked ones included: 67 + 67 + 66 = 200. */
const PER_PROJECT = [67, 67, 66];
const CONCURRENCY = 16;

export async function seedInbox(stack: Stack): Promise<InboxSeed> {
  const planned: (Omit<SeededQuestion, 'questionId'> & { toolCallId: string })[] = [];
  SEED_PROJECTS.forEach((projectId, p) => {
    for (let i = 0; i < PER_PROJECT[p]! - SEED_PARKED_TASKS.length; i++) {
      const n = p * 100 + i;
      const theme = THEMES[n % THEMES.length]!;
      planned.push({
        projectId,
        toolCallId: `seed-${projectId}-${i}`,
        pergunta: `${theme.text(SUBJECTS[n % SUBJECTS.length]!)} (#${i + 1})`,
        sugestao: i % 2 === 0 ? SUGGESTIONS[n % SUGGESTIONS.length]! : null,
        autor: ASKERS[n % ASKERS.length]!,
        sessionAuthorId: SEED_PEOPLE[n % SEED_PEOPLE.length]!,
        tarefas: [`T-${(i % 8) + 1}`],
        historias: [`S-${(i % 4) + 1}`],
        regras: i % 3 === 0 ? [`RN-${(i % 5) + 1}`] : [],
        theme: theme.theme,
        parks: null,
      });
    }
  });

  const questions: SeededQuestion[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < planned.length) {
      const { toolCallId, ...q } = planned[next++]!;
      const r = await stack.http('POST', `/internal/projects/${q.projectId}/open-questions`, {
        service: true,
        body: {
          sessionId: `session-${q.sessionAuthorId}-${q.autor}`,
          sessionAuthorId: q.sessionAuthorId,
          autor: q.autor,
          pergunta: q.pergunta,
          sugestao: q.sugestao,
          afeta: { regras: q.regras, historias: q.historias, tarefas: q.tarefas },
          toolCallId,
        },
      });
      if (r.status !== 201 && r.status !== 200)
        throw new Error(`seeding ${toolCallId}: ${r.status} ${JSON.stringify(r.body)}`);
      questions.push({ ...q, questionId: r.body.questionId as string });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  // QA's questions: a verdict that needs the user parks the task's gate on a new question.
  for (const projectId of SEED_PROJECTS) {
    for (const taskId of SEED_PARKED_TASKS) {
      await startGate(stack, projectId, taskId);
      const pergunta = `Archived invoices on ${taskId}: 404 or 410?`;
      await publishVerdict(stack, projectId, taskId, `seed-${taskId}`, [
        ask('functional', pergunta, '410 Gone'),
      ]);
      const parked = await waitFor(
        () =>
          stack.events
            .ofType<{ taskId: string; questionIds: string[] }>(OpenqEvent.GateRescueParked)
            .find((e) => e.projectId === projectId && e.data.taskId === taskId),
        { what: `${projectId}/${taskId} parked`, timeoutMs: 30_000 },
      );
      questions.push({
        projectId,
        questionId: parked.data.questionIds[0]!,
        pergunta,
        sugestao: '410 Gone',
        autor: 'qa-agent',
        sessionAuthorId: EXEC_AUTHOR,
        tarefas: [taskId],
        historias: [],
        regras: [],
        theme: 'archived',
        parks: taskId,
      });
    }
  }

  return {
    questions,
    of: (projectId) => questions.filter((q) => q.projectId === projectId),
    token: (user, projects = SEED_PROJECTS, role = 'developer') => {
      const [project, ...more] = projects;
      if (!project) throw new Error('a seed token names at least one project');
      return mintDevToken({
        user,
        project,
        role,
        moreRoles: Object.fromEntries(more.map((p) => [p, role])),
        secret: DEV_JWT_SECRET,
      });
    },
  };
}
