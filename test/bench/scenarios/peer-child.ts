import '../../../tools/register-paths';
import { LangGraphPeer } from './peer-langgraph';
import type { PeerCall, PeerReply } from './peer-process';

/**
 * The LangGraph peer's process (`PeerProcess` forks it): starts the peer on the database its
 * parent names, then runs each call its parent sends and replies with the result or the error.
 */
async function main(): Promise<void> {
  const databaseUrl = process.argv[2];
  if (!databaseUrl) throw new Error('peer-child: the database URL is its argument');
  const peer = await LangGraphPeer.start(databaseUrl);
  const reply = (message: PeerReply) => process.send?.(message);
  process.on('message', (call: PeerCall) => {
    const work =
      call.method === 'run'
        ? peer.run(...call.args)
        : call.method === 'peak'
          ? peer.peak(...call.args)
          : peer.stop().then(() => undefined);
    work.then(
      (result: unknown) => reply({ id: call.id, ok: true, result }),
      (error: unknown) =>
        reply({ id: call.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The bench ended (or died) without stopping it: nothing is left to do here.
  process.on('disconnect', () => process.exit(0));
  reply({ id: 0, ok: true, result: 'ready' });
}

main().catch((error: unknown) => {
  console.error('peer-child:', error);
  process.exit(1);
});
