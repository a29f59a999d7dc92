import { Annotation, Command, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { Pool } from 'pg';
import { guardConnection } from '@openq/persistence';
import { closedLoop, openLoop, until } from '../support/load';
import { Latency, now } from '../support/stats';

export interface PeerRun {
  parksPerSecond: number;
  resumesPerSecond: number;
  /** Resume latency (invoke(Command{resume}) until the graph has run to END) at the fixed rate. */
  resumeP50: number;
  resumeP99: number;
  /** The same, one at a time (no queueing). */
  unloadedP50: number;
  unloadedP99: number;
}

const GateState = Annotation.Root({
  taskId: Annotation<string>(),
  verdict: Annotation<string>(),
  decision: Annotation<string | null>(),
  resumed: Annotation<boolean>(),
});

function buildGraph(saver: PostgresSaver) {
  return new StateGraph(GateState)
    .addNode('gate', () => ({ verdict: 'needs_user_decision' }))
    .addNode('park', (s: typeof GateState.State) => {
      const decision = interrupt<{ pergunta: string; sugestao: string }, string>({
        pergunta: `Archived code on ${s.taskId}: 404 or 410?`,
        sugestao: '410',
      });
      return { decision };
    })
    .addNode('resume', () => ({ resumed: true }))
    .addEdge(START, 'gate')
    .addEdge('gate', 'park')
    .addEdge('park', 'resume')
    .addEdge('resume', END)
    .compile({ checkpointer: saver });
}

type Graph = ReturnType<typeof buildGraph>;

/**
 * The peer: the same park → answer → resume as LangGraph JS does it. A graph of pure functions
 * (no model): `gate` returns a needs_user_decision verdict, `park` calls `interrupt()` with the
 * question, `resume` applies the decision. Its PostgreSQL checkpointer (a pg pool of 10, like
 * openq's) stores every step. A park is `invoke(input)` returning at the interrupt; a resume is
 * `invoke(new Command({ resume }))` on the thread, running to END.
 */
export class LangGraphPeer {
  private constructor(
    private readonly pool: Pool,
    private readonly graph: Graph,
  ) {}

  static async start(databaseUrl: string): Promise<LangGraphPeer> {
    const pool = new Pool({ connectionString: databaseUrl, max: 10 });
    // A connection the server ends (the database is dropped with FORCE after the run) is reported
    // on the pool, or on a client between uses: nobody else listens, and the process would die.
    pool.on('error', () => undefined);
    pool.on('connect', guardConnection);
    const saver = new PostgresSaver(pool);
    await saver.setup();
    return new LangGraphPeer(pool, buildGraph(saver));
  }

  private park(threadId: string): Promise<unknown> {
    return this.graph.invoke(
      { taskId: threadId, decision: null, resumed: false },
      { configurable: { thread_id: threadId } },
    );
  }

  private async resume(threadId: string): Promise<void> {
    const out = (await this.graph.invoke(new Command({ resume: '410' }), {
      configurable: { thread_id: threadId },
    })) as { resumed?: boolean };
    if (out.resumed !== true) throw new Error(`bench: LangGraph thread ${threadId} did not resume`);
  }

  /**
   * `threads` parks (16 at once), then half of them resumed 16 at once (resumes/s), the other
   * half resumed at `rate`/s open-loop (latency), then `unloaded` more parked and resumed one at a time.
   */
  async run(
    tag: string,
    threads: number,
    rate: number,
    unloaded: number,
    timeoutMs: number,
  ): Promise<PeerRun> {
    const ids = Array.from({ length: threads }, (_, i) => `${tag}-${i}`);
    let t0 = now();
    await closedLoop(threads, 16, (i) => this.park(ids[i]!).then(() => undefined));
    const parksPerSecond = threads / ((now() - t0) / 1000);

    const half = Math.floor(threads / 2);
    t0 = now();
    await closedLoop(half, 16, (i) => this.resume(ids[i]!));
    const resumesPerSecond = half / ((now() - t0) / 1000);

    const atRate = new Latency();
    let done = 0;
    let failed: unknown = null;
    await openLoop(rate, threads - half, (i, at) => {
      this.resume(ids[half + i]!).then(
        () => {
          atRate.record(now() - at);
          done++;
        },
        (error: unknown) => {
          failed = error;
        },
      );
    });
    await until(() => done === threads - half || failed !== null, 'LangGraph resumes at rate', timeoutMs);
    if (failed) throw failed;

    const alone = new Latency();
    for (let i = 0; i < unloaded; i++) {
      const id = `${tag}-solo-${i}`;
      await this.park(id);
      const t = now();
      await this.resume(id);
      alone.record(now() - t);
    }
    return {
      parksPerSecond,
      resumesPerSecond,
      resumeP50: atRate.p(50),
      resumeP99: atRate.p(99),
      unloadedP50: alone.p(50),
      unloadedP99: alone.p(99),
    };
  }

  /**
   * The peak (issue #29), as openq's: for each level, `answers` threads parked beforehand (16 at
   * once), then resumed with `inFlight` invokes outstanding at any time; resumes/s per level.
   */
  async peak(
    tag: string,
    levels: readonly { inFlight: number; answers: number }[],
  ): Promise<{ inFlight: number; resumesPerSecond: number }[]> {
    const total = levels.reduce((n, l) => n + l.answers, 0);
    const ids = Array.from({ length: total }, (_, i) => `${tag}-peak-${i}`);
    await closedLoop(total, 16, (i) => this.park(ids[i]!).then(() => undefined));
    const out: { inFlight: number; resumesPerSecond: number }[] = [];
    let from = 0;
    for (const { inFlight, answers } of levels) {
      const t0 = now();
      await closedLoop(answers, inFlight, (k) => this.resume(ids[from + k]!));
      out.push({ inFlight, resumesPerSecond: answers / ((now() - t0) / 1000) });
      from += answers;
    }
    return out;
  }

  async stop(): Promise<void> {
    await this.pool.end();
  }
}
