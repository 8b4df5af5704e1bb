import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "~db/client";

const CHANNEL = "gigledger_events";

type RealtimeEvent = { topic: string; data: unknown };

/**
 * Realtime fan-out over PostgreSQL LISTEN/NOTIFY: `publish` sends through the database, so every
 * server instance on it (and this one) hands the event to its own subscribers of that topic.
 */
export type Realtime = {
  publish(topic: string, data: unknown): Promise<void>;
  subscribe(topic: string, handler: (data: unknown) => void): () => void;
  close(): Promise<void>;
};

export async function createRealtime(database: DatabaseHandle): Promise<Realtime> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const stop = await database.listen(CHANNEL, (payload) => {
    try {
      const event = JSON.parse(payload) as RealtimeEvent;
      local.emit(event.topic, event.data);
    } catch {
      // not ours
    }
  });
  return {
    async publish(topic, data) {
      // NOTIFY payloads are limited to 8000 bytes: publish ids and small records, not documents.
      await database.db.execute(
        sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify({ topic, data })})`,
      );
    },
    subscribe(topic, handler) {
      local.on(topic, handler);
      return () => local.off(topic, handler);
    },
    async close() {
      local.removeAllListeners();
      await stop();
    },
  };
}
