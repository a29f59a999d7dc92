import { QA_CUT_RULE } from '@openq/agent-sdk';
import type { CandidateDecision } from './decision-selection';
import { DECISIONS_HEADING, NO_DECISIONS_LINE } from './decisions-block';
import { buildDevContext, type StoryFacts } from './dev-context';
import { buildQaCut } from './qa-cut';

const story: StoryFacts = {
  storyId: 'S1',
  rules: ['RN-858'],
  title: 'Look up an order by code',
  rf: ['GET /:codigo returns the order'],
  rnf: ['p95 under 200 ms'],
  dod: ['contract test green'],
  dor: ['codes case-insensitive (not confirmed by the user)'],
};
const task = { taskId: 'T1', storyId: 'S1' };

function decision(i: number, affects: Partial<CandidateDecision['affects']>): CandidateDecision {
  const n = String(i).padStart(12, '0');
  return {
    decisionEventId: `0190a000-0000-7000-8000-${n}`,
    questionId: `0190b000-0000-7000-8000-${n}`,
    pergunta: `question ${i}?`,
    resposta: `answer ${i}`,
    respondidaPor: 'u1',
    viaAgente: i % 2 === 0 ? 'po' : null,
    decidedAt: `2026-11-05T10:00:${String(i).padStart(2, '0')}Z`,
    affects: { rules: [], stories: [], tasks: [], ...affects },
  };
}

const candidates = [
  decision(1, { tasks: ['T1'] }),
  decision(2, { rules: ['RN-858'] }),
  decision(3, { stories: ['S2'] }),
  ...Array.from({ length: 10 }, (_, i) => decision(10 + i, { stories: ['S1'] })),
];

describe('buildDevContext (SPEC §6.1)', () => {
  const context = buildDevContext(task, story, candidates);

  it('returns the task, its story and the linked decisions, newest first, within the ceiling', () => {
    expect(context.taskId).toBe('T1');
    expect(context.storyId).toBe('S1');
    expect(context.story).toEqual({
      title: story.title,
      rf: story.rf,
      rnf: story.rnf,
      dod: story.dod,
      dor: story.dor,
    });
    expect(context.decisoesTotal).toBe(12);
    expect(context.decisoes).toHaveLength(10);
    expect(context.decisoes[0]?.pergunta).toBe('question 19?');
    expect(Object.keys(context.decisoes[0] ?? {})).toEqual([
      'decisionEventId',
      'questionId',
      'pergunta',
      'resposta',
      'respondidaPor',
      'viaAgente',
      'decidedAt',
    ]);
  });

  it('text opens with the decisions block, declares the cut, then shows the task and story', () => {
    const lines = context.text.split('\n');
    expect(lines[0]).toBe(DECISIONS_HEADING);
    expect(context.text).toContain('showing 10 of 12');
    expect(context.text).toContain('Task T1 — story S1: Look up an order by code');
    expect(context.text).toContain('DoR:\n- codes case-insensitive (not confirmed by the user)');
    expect(context.text.indexOf('showing 10 of 12')).toBeLessThan(context.text.indexOf('Task T1'));
  });

  it('a task with no story and no decisions still opens with the heading', () => {
    const bare = buildDevContext({ taskId: 'T7', storyId: null }, null, candidates);
    expect(bare).toMatchObject({ taskId: 'T7', storyId: null, story: null, decisoes: [], decisoesTotal: 0 });
    expect(bare.text).toBe(`${DECISIONS_HEADING}\n${NO_DECISIONS_LINE}\n\nTask T7 (no story)`);
  });
});

describe('buildQaCut (SPEC §6.2)', () => {
  it('carries the same decisions block and story as the dev kickoff, and the cut rule in text', () => {
    const dev = buildDevContext(task, story, candidates);
    const cut = buildQaCut(task, story, candidates);
    expect(cut.decisoes).toEqual(dev.decisoes);
    expect(cut.decisoesTotal).toBe(dev.decisoesTotal);
    expect(cut.text.startsWith(dev.text)).toBe(true);
    expect(cut.cutRule).toBe(QA_CUT_RULE);
    expect(cut.text.endsWith(`QA cut rule: ${QA_CUT_RULE}`)).toBe(true);
    expect(cut.text).toContain(
      '"not confirmed by the user" (or contradicted by a current decision) yields needs_user_decision, never changes_requested',
    );
  });
});
