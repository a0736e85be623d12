/** The timeline's input: the compact arrays a folding run produces (defined by the core). */
export type { KeyMoment, Level, Partition, RecallTrigger, TimelineBlock, TimelineData, TimelineRetrieval } from '../../core/folding/timeline-data.ts';
