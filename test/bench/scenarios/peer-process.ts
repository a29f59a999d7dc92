import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { LangGraphPeer, PeerRun } from './peer-langgraph';

/** A call to the peer's process: one of `LangGraphPeer`'s methods and its arguments. */
export type PeerCall =
  | { id: number; method: 'run'; args: Parameters<LangGraphPeer['run']> }
  | { id: number; method: 'peak'; args: Parameters<LangGraphPeer['peak']> }
  | { id: number; method: 'stop'; args: [] };

/** What the peer's process answers a call with (id 0: it is ready). */
export type PeerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/**
 * The LangGraph peer in a process of its own (`peer-child`), as it would run beside openq rather
 * than inside it (session 25). In the bench's process, `@langchain/core` turns AsyncLocalStorage's
 * promise hooks on for good at its first `invoke`, and every promise of openq's services there
 * would pay them in the scenarios that follow; each side now pays only for what it uses. The
 * same methods as `LangGraphPeer`, over the child's IPC channel, one call at a time.
 */
export class PeerProcess {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: PeerReply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(`LangGraph peer: ${reply.error}`));
    });
    child.on('exit', (code) => {
      for (const { reject } of this.waiting.values())
        reject(new Error(`LangGraph peer's process ended (exit code ${code})`));
      this.waiting.clear();
    });
  }

  static async start(databaseUrl: string): Promise<PeerProcess> {
    const child = fork(join(__dirname, 'peer-child.js'), [databaseUrl], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const peer = new PeerProcess(child);
    await peer.answer(0);
    return peer;
  }

  run(...args: Parameters<LangGraphPeer['run']>): Promise<PeerRun> {
    return this.call({ id: this.next++, method: 'run', args }) as Promise<PeerRun>;
  }

  peak(...args: Parameters<LangGraphPeer['peak']>): ReturnType<LangGraphPeer['peak']> {
    return this.call({ id: this.next++, method: 'peak', args }) as ReturnType<LangGraphPeer['peak']>;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call({ id: this.next++, method: 'stop', args: [] });
    // Its pool is closed: the process has nothing left to do.
    this.child.kill();
    await exited;
  }

  private call(call: PeerCall): Promise<unknown> {
    const answered = this.answer(call.id);
    this.child.send(call);
    return answered;
  }

  private answer(id: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null) reject(new Error("LangGraph peer's process has ended"));
      else this.waiting.set(id, { resolve, reject });
    });
  }
}
