import type { DataSource } from 'typeorm';
import { isRefusal, type QuestionAuthor, type QuestionListReply } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { declareQuestion } from '../commands/declare-question/declare-question.handler';
import { replayQuestionProjection } from '../projections/replay';
import { useQuestionsDatabase } from '../testing/questions-database';
import { listFiltered, prefixOf, type FilteredListRequest } from './filtered-questions.query';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

interface Seed {
  projectId: string;
  pergunta: string;
  sugestao?: string;
  autor?: QuestionAuthor;
  author?: string;
  tarefas?: string[];
  historias?: string[];
  regras?: string[];
}

let n = 0;
async function declare(seed: Seed): Promise<string> {
  return ds.transaction(async (m) => {
    const outbox = new OutboxWriter(m);
    const autor = seed.autor ?? 'po';
    const origin = autor === 'qa-agent' ? 'qa_verdict' : autor === 'analyst' ? 'analyst' : 'tool';
    const result = await declareQuestion(
      m,
      outbox,
      seed.projectId,
      {
        sessionId: 's',
        sessionAuthorId: seed.author ?? 'ana',
        autor,
        origin,
        pergunta: seed.pergunta,
        sugestao: seed.sugestao ?? null,
        afeta: { regras: seed.regras ?? [], historias: seed.historias ?? [], tarefas: seed.tarefas ?? [] },
        toolCallId: `tc-${n++}`,
      },
      new Date(),
    );
    await outbox.flush();
    return result.questionId;
  });
}

async function list(q: Partial<FilteredListRequest> & { projectIds: string[] }): Promise<QuestionListReply> {
  const reply = await listFiltered(ds.manager, {
    userId: 'ana',
    status: 'open',
    limit: 50,
    who: 'all',
    ...q,
  });
  if (isRefusal(reply)) throw new Error(`refused: ${reply.reason} ${reply.message}`);
  return reply;
}

const found = async (projectIds: string[], q: string): Promise<string[]> =>
  (await list({ projectIds, q })).items.map((i) => i.pergunta);

describe('question search (PostgreSQL full text, Portuguese and English)', () => {
  beforeAll(async () => {
    await declare({ projectId: 'fts', pergunta: 'Qual decisão tomamos sobre o cache de sessões?' });
    await declare({
      projectId: 'fts',
      pergunta: 'As ações do botão devem ser confirmadas?',
      sugestao: 'Sim, com um diálogo',
    });
    await declare({
      projectId: 'fts',
      pergunta: 'Should archived codes return 410?',
      sugestao: 'Return 410 Gone for archived databases',
    });
    await declare({ projectId: 'fts', pergunta: 'Which payment provider do we integrate first?' });
  });

  it('finds Portuguese words by their stem, plural or singular, with or without accents', async () => {
    const decisao = ['Qual decisão tomamos sobre o cache de sessões?'];
    expect(await found(['fts'], 'decisões')).toEqual(decisao);
    expect(await found(['fts'], 'decisao')).toEqual(decisao);
    expect(await found(['fts'], 'DECISÕES')).toEqual(decisao);
    expect(await found(['fts'], 'sessão')).toEqual(decisao);
    expect(await found(['fts'], 'ação')).toEqual(['As ações do botão devem ser confirmadas?']);
  });

  it('finds English words by their stem, and searches the suggestion too', async () => {
    expect(await found(['fts'], 'archive')).toEqual(['Should archived codes return 410?']);
    expect(await found(['fts'], 'database')).toEqual(['Should archived codes return 410?']);
    expect(await found(['fts'], 'integrating providers')).toEqual([
      'Which payment provider do we integrate first?',
    ]);
    expect(await found(['fts'], 'diálogos')).toEqual(['As ações do botão devem ser confirmadas?']);
  });

  it('takes web-search syntax: all words, a phrase, a negation, or', async () => {
    expect(await found(['fts'], 'cache decisão')).toHaveLength(1);
    expect(await found(['fts'], 'cache payment')).toEqual([]);
    expect(await found(['fts'], '"payment provider"')).toHaveLength(1);
    expect(await found(['fts'], 'return -archived')).toEqual([]);
    expect(await found(['fts'], 'payment or cache')).toHaveLength(2);
    // Operators alone or punctuation never fail the request.
    expect(await found(['fts'], '" - or &|!:*()')).toEqual([]);
  });

  it('matches the last word as a prefix while it is being typed', async () => {
    expect(await found(['fts'], 'paym')).toEqual(['Which payment provider do we integrate first?']);
    expect(await found(['fts'], 'cache sess')).toEqual(['Qual decisão tomamos sobre o cache de sessões?']);
    expect(prefixOf('cache sess')).toEqual({ head: 'cache ', last: 'sess' });
    expect(prefixOf('"cache sess')).toBeNull();
    expect(prefixOf('cache -sess')).toBeNull();
    expect(prefixOf('ca')).toBeNull();
  });

  it('keeps the search column identical through openq replay', async () => {
    const before = await ds.query(`SELECT question_id, search::text FROM question_view ORDER BY question_id`);
    await replayQuestionProjection(ds);
    const after = await ds.query(`SELECT question_id, search::text FROM question_view ORDER BY question_id`);
    expect(after).toEqual(before);
    expect(await found(['fts'], 'decisões')).toHaveLength(1);
  });
});

describe('question filters', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.a = await declare({
      projectId: 'f1',
      pergunta: 'A',
      autor: 'po',
      author: 'ana',
      tarefas: ['T-1'],
      historias: ['S-1'],
    });
    ids.b = await declare({
      projectId: 'f1',
      pergunta: 'B',
      autor: 'arquiteto',
      author: 'bob',
      tarefas: ['T-2'],
      regras: ['RN-1'],
    });
    ids.c = await declare({
      projectId: 'f2',
      pergunta: 'C',
      autor: 'qa-agent',
      author: 'ana',
      tarefas: ['T-1'],
      regras: ['RN-1'],
    });
    ids.d = await declare({
      projectId: 'f2',
      pergunta: 'D',
      autor: 'dev_lead',
      author: 'bob',
      historias: ['S-1'],
    });
    ids.e = await declare({ projectId: 'f3', pergunta: 'E', autor: 'po', author: 'ana' });
  });
  const names = (r: QuestionListReply) => r.items.map((i) => i.pergunta);

  it('narrows by who, role, task, story and rule, with total and counts of the filtered set', async () => {
    const mine = await list({ projectIds: ['f1', 'f2'], who: 'mine' });
    expect(names(mine)).toEqual(['A', 'C']);
    expect(mine.total).toBe(2);
    expect(mine.counts).toEqual({ mine: 2, others: 2 });
    expect(mine.items.every((i) => i.canAnswer)).toBe(true);
    const others = await list({ projectIds: ['f1', 'f2'], who: 'others' });
    expect(names(others)).toEqual(['B', 'D']);
    expect(others.items.every((i) => !i.canAnswer)).toBe(true);
    expect(names(await list({ projectIds: ['f1', 'f2'], role: ['po', 'qa-agent'] }))).toEqual(['A', 'C']);
    expect(names(await list({ projectIds: ['f1', 'f2'], task: 'T-1' }))).toEqual(['A', 'C']);
    expect(names(await list({ projectIds: ['f1', 'f2'], story: 'S-1' }))).toEqual(['A', 'D']);
    const rule = await list({ projectIds: ['f1', 'f2'], rule: 'RN-1', who: 'mine' });
    expect(names(rule)).toEqual(['C']);
    expect(rule.counts).toEqual({ mine: 1, others: 1 });
    expect(rule.total).toBe(1);
  });

  it('lists across projects with each item’s projectId, never a project not named', async () => {
    const across = await list({ projectIds: ['f1', 'f3'] });
    expect(across.items.map((i) => [i.pergunta, i.projectId])).toEqual([
      ['A', 'f1'],
      ['B', 'f1'],
      ['E', 'f3'],
    ]);
    expect(across.total).toBe(3);
  });

  it('pages a filtered list with a cursor, blocking ids first', async () => {
    const first = await list({ projectIds: ['f1', 'f2', 'f3'], who: 'mine', limit: 2, first: [ids.e!] });
    expect(names(first)).toEqual(['E', 'A']);
    expect(first.total).toBe(3);
    const second = await list({
      projectIds: ['f1', 'f2', 'f3'],
      who: 'mine',
      limit: 2,
      first: [ids.e!],
      cursor: first.nextCursor,
    });
    expect(names(second)).toEqual(['C']);
    expect(second.nextCursor).toBeNull();
    const plain = await list({ projectIds: ['f1', 'f2', 'f3'], limit: 3 });
    const next = await list({ projectIds: ['f1', 'f2', 'f3'], limit: 3, cursor: plain.nextCursor });
    expect([...names(plain), ...names(next)]).toEqual(['A', 'B', 'C', 'D', 'E']);
  });
});
