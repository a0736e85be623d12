/** Token counts the worker computed, kept for the open conversation and counter (keyed by import). */
import type { StateCreator } from 'zustand';
import type { TokenCounts } from '../worker/protocol.ts';

export interface CountsSlice {
  /** Key `${conversationId}|${importId}|${counter}`. */
  counts: Record<string, TokenCounts>;
  countErrors: Record<string, string>;
  putCounts: (key: string, counts: TokenCounts) => void;
  putCountError: (key: string, message: string) => void;
}

export function countsKey(conversationId: string, importId: string, counter: string): string {
  return `${conversationId}|${importId}|${counter}`;
}

export const createCountsSlice: StateCreator<CountsSlice, [], [], CountsSlice> = (set) => ({
  counts: {},
  countErrors: {},
  putCounts: (key, counts) => set((state) => ({ counts: { ...state.counts, [key]: counts } })),
  putCountError: (key, message) => set((state) => ({ countErrors: { ...state.countErrors, [key]: message } })),
});
