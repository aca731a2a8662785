// A text box of folders, one per line ("Folders agents may read", "Folders agents may upload from"):
// shown as the person wrote them, stored as canonical file: URLs (shared/local-files.ts).
import { displayFolder, folderFromInput } from '../shared/local-files';

/** The box's text for the stored folders. */
export function showFolders(stored: unknown): string {
  return Array.isArray(stored)
    ? stored
        .filter((f): f is string => typeof f === 'string')
        .map(displayFolder)
        .join('\n')
    : '';
}

/** The folders of the box's lines (duplicates dropped), their warnings, or the first line that cannot be allowed. */
export function readFolders(text: string, use: 'read' | 'upload'): { folders: string[]; warnings: string[]; error: string | null } {
  const folders: string[] = [];
  const warnings: string[] = [];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const f = folderFromInput(line, use);
    if (!f.ok) return { folders, warnings, error: f.error };
    if (!folders.includes(f.url)) folders.push(f.url);
    if (f.warning) warnings.push(f.warning);
  }
  return { folders, warnings, error: null };
}
