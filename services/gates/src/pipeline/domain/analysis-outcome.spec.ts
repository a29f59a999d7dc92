import {
  analysisOutcome,
  DEFAULT_ANALYSIS_FLAGS,
  type AnalysisFlags,
  type AnalysisReport,
} from './analysis-outcome';

const Q = '2026-06-17T10:00:00Z';
const NEWER = '2026-06-17T11:00:00Z';
const OLDER = '2026-06-17T09:00:00Z';
const files = (questions: string | null, deliverables: string | null, brd: string | null = deliverables) => ({
  '01-questions.md': questions,
  '01-brd.md': brd,
  '02-trz.md': deliverables,
  '03-acceptance-criteria.md': deliverables,
  '04-test-plan.yaml': deliverables,
});
const questions = [{ pergunta: 'Which market?', sugestao: 'BR' }];
const report = (
  pkg: AnalysisReport['package'],
  labels: string[] = [],
  repo = 'orchestrator',
): AnalysisReport => ({ repo, labels, package: pkg, questions });
const flags = (overrides: Partial<AnalysisFlags> = {}): AnalysisFlags => ({
  ...DEFAULT_ANALYSIS_FLAGS,
  ...overrides,
});

const ACTIVE_READY = files(Q, OLDER); // fabricated deliverables older than the questions
const ACTIVE_MISSING = files(Q, null);
const SETTLED_READY = files(Q, NEWER);
const PLAIN_READY = files(null, NEWER);
const PLAIN_MISSING = files(null, NEWER, null);

describe('analysis outcome', () => {
  it.each<[string, AnalysisReport, AnalysisFlags, unknown]>([
    [
      'active questions win over files ready',
      report(ACTIVE_READY),
      flags(),
      { kind: 'needs_input', questions, pause: { source: 'engine' } },
    ],
    [
      '…and over the auto-approve label',
      report(ACTIVE_READY, ['auto-approve']),
      flags(),
      { kind: 'needs_input', questions, pause: { source: 'engine' } },
    ],
    [
      'active questions with a missing package',
      report(ACTIVE_MISSING),
      flags(),
      { kind: 'needs_input', questions, pause: { source: 'engine' } },
    ],
    [
      'a fresh full package supersedes old questions',
      report(SETTLED_READY),
      flags(),
      { kind: 'in_review', advanceTo: null },
    ],
    ['files ready → in review', report(PLAIN_READY), flags(), { kind: 'in_review', advanceTo: null }],
    [
      'files ready + auto-approve → architecture',
      report(PLAIN_READY, ['x', 'auto-approve']),
      flags(),
      { kind: 'in_review', advanceTo: 'architecture' },
    ],
    [
      'a custom auto-approve label',
      report(PLAIN_READY, ['ship-it']),
      flags({ autoApproveLabel: 'ship-it' }),
      { kind: 'in_review', advanceTo: 'architecture' },
    ],
    [
      'the default label does not count under a custom one',
      report(PLAIN_READY, ['auto-approve']),
      flags({ autoApproveLabel: 'ship-it' }),
      { kind: 'in_review', advanceTo: null },
    ],
    [
      'incomplete package',
      report(PLAIN_MISSING),
      flags(),
      { kind: 'analysis_incomplete', missing: ['01-brd.md'] },
    ],
    [
      'autopause off: needs input, no pause',
      report(ACTIVE_READY),
      flags({ analystNeedsInputAutopauseEnabled: false }),
      { kind: 'needs_input', questions, pause: null },
    ],
    [
      'repo in scope',
      report(ACTIVE_READY, [], 'orchestrator'),
      flags({ analystQuestionsGateRepos: ['orchestrator'] }),
      { kind: 'needs_input', questions, pause: { source: 'engine' } },
    ],
  ])('%s', (_name, input, f, expected) => {
    expect(analysisOutcome(input, f).outcome).toEqual(expected);
  });

  describe('flag off or repo out of scope = exactly the previous behaviour', () => {
    const off: Array<[string, AnalysisFlags]> = [
      ['gate disabled', flags({ analystQuestionsGateEnabled: false })],
      ['repo out of scope', flags({ analystQuestionsGateRepos: ['enduro'] })],
    ];
    it.each(off)('%s: files ready first, questions ignored', (_name, f) => {
      expect(analysisOutcome(report(ACTIVE_READY, ['auto-approve']), f)).toEqual({
        outcome: { kind: 'in_review', advanceTo: 'architecture' },
        questionsCheck: null,
      });
    });
    it.each(off)('%s: not ready → incomplete, no pause', (_name, f) => {
      expect(analysisOutcome(report(ACTIVE_MISSING), f)).toEqual({
        outcome: {
          kind: 'analysis_incomplete',
          missing: ['01-brd.md', '02-trz.md', '03-acceptance-criteria.md', '04-test-plan.yaml'],
        },
        questionsCheck: null,
      });
    });
  });

  describe('never raise: a malformed package degrades to the previous behaviour', () => {
    it('files ready → in review, flagged degraded', () => {
      const decision = analysisOutcome(report({ ...files('garbage', NEWER) }), flags());
      expect(decision.outcome).toEqual({ kind: 'in_review', advanceTo: null });
      expect(decision.questionsCheck).toMatchObject({ active: false, degraded: true });
    });
    it('files missing → incomplete, flagged degraded', () => {
      const decision = analysisOutcome(report({ ...files(Q, null), '02-trz.md': 'soon' }), flags());
      expect(decision.outcome).toMatchObject({ kind: 'analysis_incomplete' });
      expect(decision.questionsCheck).toMatchObject({ degraded: true });
    });
  });
});
