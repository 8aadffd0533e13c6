/**
 * Where a store keeps its instance marker and its quarantine, beside the files (docs/decisions/036): names no storage
 * key can take (a key never starts with a dot and never holds a slash), so neither is ever listed, served, backed up or
 * swept as a file.
 */
export const MARKER_NAME = '.easyform-instance';
export const QUARANTINE_FOLDER = 'quarantine';
/** What the readiness check writes and removes again to learn that the store takes writes (health.ts). */
export const PROBE_NAME = '.easyform-ready';

/** A marker's text as read: its first line, trimmed and bounded (an operator may have edited it). */
export const markerOf = (text: string): string | null => text.split('\n')[0]?.trim().slice(0, 100) || null;
