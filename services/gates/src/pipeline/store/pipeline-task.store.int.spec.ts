import { useServiceDatabase } from '@openq/testing';
import type { PipelineTask } from '../domain/pipeline-task';
import { PIPELINE_MIGRATIONS } from '../migrations';
import { PipelineTaskStore } from './pipeline-task.store';

const store = useServiceDatabase('gates', PIPELINE_MIGRATIONS);

const at = new Date('2026-06-17T10:00:00.000Z');

/** A task in Needs Input whose analyst asked two questions, not linked yet. */
const task: PipelineTask = {
  projectId: 'p1',
  taskId: 'A',
  repo: 'api',
  order: 1,
  deps: [],
  labels: [],
  stage: 'analysis',
  pausedAt: at,
  pauseSource: 'engine',
  analystRunning: false,
  needsInput: true,
  questionIds: [],
  answeredQuestionIds: [],
  pendingQuestionRequest: {
    sessionId: 's1',
    sessionAuthorId: 'u1',
    role: 'analyst',
    origin: 'analyst',
    affects: { rules: [], stories: [], tasks: ['A'] },
    declare: [
      { key: 'analyst:A:s1:0:0', question: 'Which market?', suggestion: 'BR' },
      { key: 'analyst:A:s1:0:1', question: 'Tax?', suggestion: null },
    ],
  },
  relaunchCount: 0,
  lastRelaunchTrigger: null,
  updatedAt: at,
};

describe('PipelineTaskStore', () => {
  it('keeps the task document in the words it always had, and reads it back as the domain task', async () => {
    const { document, loaded } = await store.ds.transaction(async (manager) => {
      const tasks = new PipelineTaskStore(manager);
      await tasks.save(task);
      const [row]: { state: unknown }[] = await manager.query(
        `SELECT state FROM pipeline_task WHERE project_id = $1 AND task_id = $2`,
        [task.projectId, task.taskId],
      );
      return { document: row?.state, loaded: await tasks.load(task.projectId, task.taskId) };
    });
    const { pausedAt: _pausedAt, updatedAt: _updatedAt, ...state } = task;
    expect(document).toEqual({
      ...state,
      pendingQuestionRequest: {
        sessionId: 's1',
        sessionAuthorId: 'u1',
        autor: 'analyst',
        origin: 'analyst',
        afeta: { regras: [], historias: [], tarefas: ['A'] },
        declare: [
          { key: 'analyst:A:s1:0:0', pergunta: 'Which market?', sugestao: 'BR' },
          { key: 'analyst:A:s1:0:1', pergunta: 'Tax?', sugestao: null },
        ],
      },
    });
    expect(loaded).toEqual({ task, status: null });
  });
});
