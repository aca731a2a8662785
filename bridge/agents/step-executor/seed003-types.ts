// Seed 003's shapes that the executor and its Tool Selection share (the seed's Interface Contracts):
// the accessibility tree given as dom_snapshot, the chosen tool, and the error types of the output.

export type Seed003ErrorType = 'none' | 'element_not_found' | 'ambiguous_step' | 'tool_limit' | 'navigation_blocked' | 'unknown';

export interface AxNode {
  role: string;
  name: string;
  value?: string;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  focused?: boolean;
  level?: number;
  children?: AxNode[];
}

/** The chosen tool and its arguments (the seed's Tool Inventory: search takes query). */
export interface Seed003ToolCall {
  tool: string;
  args?: { url?: string; role?: string; name?: string; text?: string; query?: string; direction?: string; key?: string; seconds?: number };
}
