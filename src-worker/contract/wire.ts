/** Wire messages: WebSocket frames (as JSON) and MessagePort messages (as objects). */
import { z } from 'zod';
import { ApiEvent } from './events.js';
import { ApiError } from './schema.js';

export const ClientMessage = z.object({
  type: z.literal('request'),
  id: z.int(),
  method: z.string(),
  params: z.unknown(),
});

export const ServerMessage = z.union([
  z.object({
    type: z.literal('response'),
    id: z.number(),
    ok: z.literal(true),
    result: z.unknown(),
  }),
  z.object({ type: z.literal('response'), id: z.number(), ok: z.literal(false), error: ApiError }),
  z.object({ type: z.literal('event'), event: ApiEvent }),
]);
