import { AgentEvent } from '@openq/contracts';
import type { StackView } from '../../support/processes';
import { devToken, Engine, httpUntilDefinitive, type HttpResult } from './engine';
import type { Rng } from './rng';

/*
 * A mixed load as an engine and a user would make it: declare_open_question calls, QA gate starts
 * followed by needs_user_decision verdicts (whose question the gates service declares), agent
 * answers (agent.question.answer) and clicks through the gateway. What it sent, and what the
 * edge answered, is kept for the invariants (`invariants.ts`).
 */

export const AUTHOR = 'ana';
export type Door = 'agent' | 'click' | null;

export interface PlannedDeclare {
  project: string;
  toolCallId: string;
  door: Door;
}

export interface PlannedCycle {
  project: string;
  taskId: string;
  roundId: string;
  door: Door;
}

export interface WorkloadOptions {
  rng: Rng;
  tag: string;
  projects: number;
  declares: number;
  cycles: number;
  /** Share of tool questions / QA questions that get an answer. */
  answerShare: number;
  cycleAnswerShare: number;
  /** Share of answers given by click (the rest by agent event). */
  clickShare: number;
  /** Agent events published per second. */
  rate: number;
  /** Answers in flight at once. */
  answerConcurrency?: number;
  /**
   * Each agent event is published this many times, each copy with a new event id (so JetStream's
   * duplicate window does not drop it): a redelivery storm the inbox cannot absorb by id, only the
   * domain's own keys (toolCallId, roundId, the answered question).
   */
  copies?: number;
}

export interface ClickOutcome {
  project: string;
  questionId: string;
  status: number;
  reason: string | null;
  decisionEventId: string | null;
  retries: number;
  /** What each retried attempt got (`<status> <reason> at <time>`). */
  retriedOn: string[];
}

/** The toolCallId the gates service gives the question of a QA round (see qaToolCallId). */
export const qaToolCall = (c: PlannedCycle) => `qa:${c.taskId}:qa:${c.roundId}:contract`;

export class Workload {
  readonly declares: PlannedDeclare[] = [];
  readonly cycles: PlannedCycle[] = [];
  readonly clicks: ClickOutcome[] = [];
  /** questionId → the door it was answered through, for every answer the load gave. */
  readonly answered = new Map<string, { door: 'agent' | 'click'; project: string }>();
  readonly projects: string[];
  agentAnswers = 0;
  clickRetries = 0;
  published = 0;
  done = 0;
  private readonly byToolCall = new Map<string, { door: Door; project: string }>();
  private lastPosition = '0';
  private looks = 0;
  private readonly queue: { questionId: string; project: string; door: 'agent' | 'click' }[] = [];
  private publishing = true;

  constructor(
    private readonly stack: StackView,
    readonly engine: Engine,
    readonly options: WorkloadOptions,
  ) {
    const { rng, tag } = options;
    this.projects = Array.from({ length: options.projects }, (_, i) => `${tag}p${i}`);
    const door = (share: number): Door =>
      rng.chance(share) ? (rng.chance(options.clickShare) ? 'click' : 'agent') : null;
    for (let i = 0; i < options.declares; i++) {
      const d = {
        project: rng.pick(this.projects),
        toolCallId: `${tag}-tc-${i}`,
        door: door(options.answerShare),
      };
      this.declares.push(d);
      this.byToolCall.set(`${d.project}/${d.toolCallId}`, d);
    }
    for (let i = 0; i < options.cycles; i++) {
      const c = {
        project: rng.pick(this.projects),
        taskId: `${tag}-T${i}`,
        roundId: `${tag}-r${i}`,
        door: door(options.cycleAnswerShare),
      };
      this.cycles.push(c);
      this.byToolCall.set(`${c.project}/${qaToolCall(c)}`, c);
    }
  }

  /** Agent events and clicks the plan makes in all. */
  get plannedEvents(): number {
    const answers = [...this.declares, ...this.cycles].filter((x) => x.door === 'agent').length;
    return this.declares.length + 2 * this.cycles.length + answers;
  }

  get plannedClicks(): number {
    return [...this.declares, ...this.cycles].filter((x) => x.door === 'click').length;
  }

  get plannedAnswers(): number {
    return [...this.declares, ...this.cycles].filter((x) => x.door !== null).length;
  }

  /** 0..1: how much of the plan has been carried out (publishing and answering). */
  get progress(): number {
    return (
      (this.published + this.done) / (this.declares.length + 2 * this.cycles.length + this.plannedAnswers)
    );
  }

  /** Publishes the plan at the configured rate while answering what gets declared; resolves when all is done. */
  async run(): Promise<void> {
    const verbose = process.env.FAULTS_VERBOSE
      ? setInterval(
          () =>
            process.stderr.write(
              `[load ${this.options.tag}] published ${this.published} answered ${this.done}/${this.plannedAnswers} found ${this.answered.size} queue ${this.queue.length} progress ${this.progress.toFixed(3)}\n`,
            ),
          3000,
        )
      : null;
    try {
      await this.runLoad();
    } finally {
      if (verbose) clearInterval(verbose);
    }
  }

  private async runLoad(): Promise<void> {
    const answering = this.answerLoop();
    try {
      await this.publishAll();
    } finally {
      this.publishing = false;
    }
    await answering;
  }

  private async publishAll(): Promise<void> {
    const { rng, rate } = this.options;
    const actions: (() => Promise<void>)[] = [];
    for (const d of this.declares) actions.push(() => this.declare(d));
    for (const c of this.cycles) actions.push(() => this.cycle(c));
    rng.shuffle(actions);
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    for (const action of actions) {
      if (this.aborted) break;
      const due = started + (sent * 1000) / rate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      while (inFlight.size >= 64) await Promise.race(inFlight);
      const p: Promise<void> = action().finally(() => inFlight.delete(p));
      inFlight.add(p);
      sent++;
    }
    await Promise.all(inFlight);
  }

  /** Publishes the event, and its copies under new event ids when the plan says so. */
  private async emit(type: string, project: string, data: unknown): Promise<void> {
    const copies = this.options.copies ?? 1;
    for (let i = 0; i < copies; i++) await this.engine.emit(type, project, data);
    this.copiesSent += copies - 1;
  }

  copiesSent = 0;

  private async declare(d: PlannedDeclare): Promise<void> {
    await this.emit(AgentEvent.QuestionDeclare, d.project, {
      sessionId: 's1',
      sessionAuthorId: AUTHOR,
      autor: 'po',
      pergunta: `Fault load question ${d.toolCallId}: which currency?`,
      sugestao: 'BRL',
      afeta: { regras: ['RN-1'], historias: ['H-1'], tarefas: ['T-1'] },
      toolCallId: d.toolCallId,
    });
    this.published++;
  }

  private async cycle(c: PlannedCycle): Promise<void> {
    await this.emit(AgentEvent.GateStarted, c.project, {
      taskId: c.taskId,
      gate: 'qa',
      sessionId: `exec-${c.taskId}`,
      sessionAuthorId: AUTHOR,
    });
    this.published++;
    await this.emit(AgentEvent.QaVerdict, c.project, {
      roundId: c.roundId,
      taskId: c.taskId,
      gate: 'qa',
      sessionId: `qa-${c.taskId}`,
      sessionAuthorId: AUTHOR,
      verdicts: [
        { subspecialty: 'functional', veredito: 'approved', resumo: 'criteria pass', itens: [] },
        {
          subspecialty: 'contract',
          veredito: 'needs_user_decision',
          resumo: 'not confirmed',
          itens: [],
          pergunta: `404 or 410 on ${c.taskId}?`,
          sugestao: '410',
        },
      ],
    });
    this.published++;
  }

  /** Finds newly declared questions (the log, by position) and answers them through their door. */
  private async answerLoop(): Promise<void> {
    const failures: unknown[] = [];
    const workers = Array.from({ length: this.options.answerConcurrency ?? 12 }, () =>
      this.answerWorker().catch((error: unknown) => {
        failures.push(error);
        this.stopWorkers = true;
      }),
    );
    let deadline = Infinity;
    for (;;) {
      await this.discover();
      if (failures.length > 0) throw failures[0];
      if (this.aborted) break;
      if (!this.publishing && this.done >= this.plannedAnswers) break;
      if (!this.publishing && deadline === Infinity) deadline = Date.now() + 240_000;
      if (Date.now() > deadline) {
        // Some planned question never showed up in the log: the invariants will say which, and why.
        this.stalled = `answers: ${this.answered.size} of ${this.plannedAnswers} planned answers found declared, ${this.done} given`;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    this.stopWorkers = true;
    await Promise.all(workers);
  }

  private stopWorkers = false;
  /** Set when the load gave up waiting for planned questions to be declared. */
  stalled: string | null = null;
  private aborted = false;

  /** Stops publishing and answering (a failed test's cleanup). */
  abort(): void {
    this.aborted = true;
    this.stopWorkers = true;
  }

  /**
   * Positions are taken at insert and committed out of order, so each look goes back a window
   * behind the highest position seen, and every tenth look reads the whole log of the load.
   */
  private async discover(): Promise<void> {
    const from = this.looks++ % 10 === 9 ? 0 : Math.max(0, Number(this.lastPosition) - 2000);
    const rows = await this.stack
      .sql<{ position: string; question_id: string; project_id: string; tc: string }>(
        `SELECT position::text, question_id, project_id, data->>'toolCallId' AS tc FROM questions.question_log
        WHERE type = 'question.declared' AND position > $1 AND project_id = ANY($2) ORDER BY position`,
        [from, this.projects],
      )
      .catch(() => []);
    for (const row of rows) {
      if (Number(row.position) > Number(this.lastPosition)) this.lastPosition = row.position;
      const planned = this.byToolCall.get(`${row.project_id}/${row.tc}`);
      if (!planned?.door || this.answered.has(row.question_id)) continue;
      this.answered.set(row.question_id, { door: planned.door, project: row.project_id });
      this.queue.push({ questionId: row.question_id, project: row.project_id, door: planned.door });
    }
  }

  private async answerWorker(): Promise<void> {
    for (;;) {
      const next = this.queue.shift();
      if (!next) {
        if (this.stopWorkers) return;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      if (next.door === 'agent') {
        await this.emit(AgentEvent.QuestionAnswer, next.project, {
          toolCallId: `ans-${next.questionId}`,
          questionId: next.questionId,
          viaAgente: 'po',
          resposta: `agent answer to ${next.questionId}`,
        });
        this.agentAnswers++;
      } else {
        this.clicks.push(await this.click(next.project, next.questionId));
      }
      this.done++;
    }
  }

  async click(
    project: string,
    questionId: string,
    resposta = `click answer to ${questionId}`,
  ): Promise<ClickOutcome> {
    let retries = 0;
    const retriedOn: string[] = [];
    const result: HttpResult = await httpUntilDefinitive(
      () => this.stack.gatewayUrl,
      'POST',
      `/projects/${project}/open-questions/${questionId}/answer`,
      { token: devToken(AUTHOR, project), body: { resposta } },
      (failed) => {
        retries++;
        this.clickRetries++;
        const reason = (failed.body as { reason?: string } | null)?.reason ?? '';
        retriedOn.push(`${failed.status} ${reason} at ${new Date().toISOString().slice(11, 23)}`);
      },
    );
    return {
      project,
      questionId,
      status: result.status,
      reason: (result.body as { reason?: string } | null)?.reason ?? null,
      decisionEventId: (result.body as { decisionEventId?: string } | null)?.decisionEventId ?? null,
      retries,
      retriedOn,
    };
  }
}
