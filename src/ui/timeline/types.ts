/** The timeline's input: the compact arrays a folding run produces (defined by the core). */
export type { KeyMoment, Level, Partition, TimelineBlock, TimelineData } from '../../core/folding/timeline-data.ts';
