/** The loopback test server as its own process for the download bench; prints its port. */
import { startLoopbackServer } from '../../src-worker/net/testing/loopbackServer.js';

const srv = await startLoopbackServer();
process.stdout.write(`${srv.port}\n`);
process.stdin.resume();
process.stdin.on('end', () => void srv.close().then(() => process.exit(0)));
