// Seed 002's saved Tools: chrome.storage.local key saved_tools = Array<{name: string, url: string}>.
// The settings UI (side panel / options) writes it; open_tool and list_tools read it.
export const SAVED_TOOLS_KEY = 'saved_tools';

export interface SavedTool {
  name: string;
  url: string;
}

/** The saved tools, skipping entries that are not {name, url} strings (hand-edited storage). */
export async function readSavedTools(): Promise<SavedTool[]> {
  const got = (await chrome.storage.local.get(SAVED_TOOLS_KEY)) as Record<string, unknown>;
  const raw = got[SAVED_TOOLS_KEY];
  if (!Array.isArray(raw)) return [];
  const tools: SavedTool[] = [];
  for (const t of raw) {
    if (
      t &&
      typeof t === 'object' &&
      typeof (t as SavedTool).name === 'string' &&
      typeof (t as SavedTool).url === 'string' &&
      (t as SavedTool).name.trim() &&
      (t as SavedTool).url.trim()
    ) {
      tools.push({ name: (t as SavedTool).name.trim(), url: (t as SavedTool).url.trim() });
    }
  }
  return tools;
}

/** Case-insensitive, whitespace-trimmed match (seed 002: "The exact name of a saved Tool (case-insensitive)"). */
export function findTool(tools: readonly SavedTool[], name: string): SavedTool | undefined {
  const want = name.trim().toLowerCase();
  return tools.find((t) => t.name.toLowerCase() === want);
}
