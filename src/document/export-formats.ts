/** The forms `exportDag` (document/export.ts) writes. */
export type ExportFormat = 'compact' | 'expanded' | 'nquads';

/** The formats, for command-line choices. */
export const EXPORT_FORMATS: readonly ExportFormat[] = Object.freeze(['compact', 'expanded', 'nquads']);
