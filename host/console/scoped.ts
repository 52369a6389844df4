// What a one-question link shows: that question while it waits, and nothing
// of the console besides (no other question, no session, no chain entry).
import type { ConsoleHub } from './hub.js';

export type StateView = () => ReturnType<ConsoleHub['state']>;

export function questionOnly(hub: ConsoleHub, id: string): StateView {
  return () => ({ questions: hub.board.pending().filter((q) => q.id === id), sessions: [], chain: [] });
}
