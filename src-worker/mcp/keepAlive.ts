/**
 * Keep-alive that survives a stalled event loop, for our node:http servers.
 *
 * Node closes a keep-alive socket from a timer once it has been idle for
 * `keepAliveTimeout` (plus 1 s, Node >= 20.18); undici, the fetch of Node
 * and of the MCP SDK's client, reuses a socket for up to the server's
 * `Keep-Alive: timeout` hint minus 2 s. When the event loop stalls for more
 * than those 3 s right after a client sent a request on such a socket (a busy
 * engine on a loaded machine), the loop's next turn runs timers before it
 * polls sockets: the request is still unread in the kernel when the timer
 * closes the socket, the client gets ECONNRESET ("fetch failed") and the
 * server never saw a request, so it logs nothing.
 *
 * A 'timeout' listener on the server takes that decision from Node (Node
 * destroys the socket only when nobody listens): the socket is closed after
 * the loop's next poll, and only if nothing arrived on it meanwhile.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export function closeIdleSocketsAfterPoll(server: Server): void {
  server.on('timeout', (socket: Socket) => {
    const seen = socket.bytesRead;
    // setImmediate runs after the poll phase, which reads what is pending.
    setImmediate(() => {
      if (socket.bytesRead === seen) socket.destroy();
    });
  });
}
