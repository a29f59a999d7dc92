import {
  ANALYTICS_ROLES,
  OpenqEvent,
  type AnalyticsGrouping,
  type AnalyticsRow,
  type EventEnvelope,
} from '@openq/contracts';

/**
 * SPEC §12.4 recomputed from the published events alone, in plain code, for the end-to-end test to
 * hold the read model's SQL against: each figure at its own fact's instant, by the question's
 * `autor` (joined and precedents by the role that asked again), parked time from a park on a user
 * decision to the cycle's next resume (by role: once per role among its questions).
 */
export function recomputeAnalytics(
  events: readonly EventEnvelope[],
  projectId: string,
  window: { from: string; to: string },
  by: AnalyticsGrouping,
): AnalyticsRow[] {
  const mine = events.filter((e) => e.projectId === projectId);
  const data = (e: EventEnvelope) => e.data as Record<string, unknown>;
  const of = (type: string) => mine.filter((e) => e.type === type);
  const autor = new Map<string, string>();
  const declaredAt = new Map<string, number>();
  for (const e of of(OpenqEvent.QuestionDeclared)) {
    autor.set(data(e).questionId as string, data(e).autor as string);
    declaredAt.set(data(e).questionId as string, Date.parse(data(e).declaredAt as string));
  }
  const facts: { role: string | null; at: number; kind: string; minutes?: number }[] = [];
  const push = (questionId: string, at: string, kind: string, minutes?: number) => {
    const role = autor.get(questionId);
    if (role) facts.push({ role, at: Date.parse(at), kind, ...(minutes === undefined ? {} : { minutes }) });
  };
  for (const [questionId, at] of declaredAt) push(questionId, new Date(at).toISOString(), 'asked');
  for (const e of of(OpenqEvent.QuestionAnswered)) {
    const a = data(e);
    const q = a.questionId as string;
    const minutes = (Date.parse(a.answeredAt as string) - declaredAt.get(q)!) / 60_000;
    push(q, a.answeredAt as string, a.viaAgente === null ? 'click' : 'agent', minutes);
    if (a.aceitouSugestao === true) push(q, a.answeredAt as string, 'accepted');
  }
  for (const e of of(OpenqEvent.QuestionWithdrawn))
    push(data(e).questionId as string, data(e).withdrawnAt as string, 'withdrawn');
  for (const e of of(OpenqEvent.DecisionSuperseded))
    push(data(e).questionId as string, data(e).supersededAt as string, 'amended');
  for (const [type, kind] of [
    ['question.joined', 'joined'],
    ['question.precedent_offered', 'precedent'],
  ] as const)
    for (const e of of(type))
      facts.push({ role: (data(e).asker as { autor: string }).autor, at: Date.parse(e.occurredAt), kind });
  const resumes = of(OpenqEvent.GateResumed);
  for (const park of of(OpenqEvent.GateRescueParked)) {
    const p = data(park);
    if (p.reason !== 'user_decision') continue;
    const parkedAt = Date.parse(park.occurredAt);
    const next = resumes
      .filter(
        (r) => data(r).taskId === p.taskId && data(r).gate === p.gate && Date.parse(r.occurredAt) >= parkedAt,
      )
      .sort((x, y) => Date.parse(x.occurredAt) - Date.parse(y.occurredAt))[0];
    if (!next) continue;
    const at = Date.parse(next.occurredAt);
    const minutes = (at - parkedAt) / 60_000;
    const roles =
      by === 'role'
        ? [...new Set((p.questionIds as string[]).map((q) => autor.get(q)).filter((r) => r !== undefined))]
        : [null];
    for (const role of roles) facts.push({ role, at, kind: 'parked', minutes });
  }

  const start = Date.parse(`${window.from}T00:00:00Z`);
  const end = Date.parse(`${window.to}T00:00:00Z`) + 86_400_000;
  const inWindow = facts.filter((f) => f.at >= start && f.at < end);
  const keyOf = (f: { role: string | null; at: number }) => (by === 'role' ? f.role! : mondayOf(f.at));
  const keys =
    by === 'role'
      ? ANALYTICS_ROLES.filter((r) => inWindow.some((f) => f.role === r))
      : weeks(start, end - 86_400_000);
  return keys.map((key) => {
    const here = inWindow.filter((f) => keyOf(f) === key);
    const count = (kind: string) => here.filter((f) => f.kind === kind).length;
    const minutes = (...kinds: string[]) => here.filter((f) => kinds.includes(f.kind)).map((f) => f.minutes!);
    return {
      key,
      asked: count('asked'),
      joined: count('joined'),
      precedents: count('precedent'),
      withdrawn: count('withdrawn'),
      answeredByClick: count('click'),
      answeredByAgent: count('agent'),
      suggestionAccepted: count('accepted'),
      amended: count('amended'),
      answerMinutesP50: percentile(minutes('click', 'agent'), 0.5),
      answerMinutesP90: percentile(minutes('click', 'agent'), 0.9),
      parkedMinutesP50: percentile(minutes('parked'), 0.5),
    };
  });
}

/** PostgreSQL's `percentile_cont` (linear between the two closest ranks), to 2 decimals. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const value = sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
  return Math.round(value * 100) / 100;
}

function mondayOf(at: number): string {
  const day = new Date(at);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - back))
    .toISOString()
    .slice(0, 10);
}

function weeks(start: number, last: number): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${mondayOf(start)}T00:00:00Z`); at <= last; at += 7 * 86_400_000)
    out.push(new Date(at).toISOString().slice(0, 10));
  return out;
}
