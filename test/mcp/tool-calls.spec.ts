// No browser: what the MCP tools cost in the model's context (tools/list as the official SDK client
// receives it), how they take Playwright MCP's argument shapes, and the words of their argument
// and connection errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect } from 'chai';
import { countTokens } from 'gpt-tokenizer';

import { createMcpSession, type McpSession } from '../../bridge/agents/mcp/mcp-server';
import { SnapshotMemory } from '../../bridge/agents/mcp/snapshot-text';
import { normalizeArgs } from '../../bridge/agents/mcp/tool-args';
import { runTool, TOOL_BY_NAME, type ToolContext } from '../../bridge/agents/mcp/tools';
import type { AgentClient } from '../../bridge/client/agent-client';
import { cli } from '../../bridge/common/cli-invocation';
import type { ActionResultMessage } from '../../schemas/generated/protocol';

/**
 * tools/list budget in o200k tokens (gpt-tokenizer over JSON.stringify of the tools array the SDK
 * client receives, as `npm run bench:mcp` measures both sides). Playwright MCP 0.0.83's tools/list
 * measured 4,396 tokens that way (bench/results/mcp.md, 25 tools); ours reached 4,121 (22 tools)
 * and may grow by a small margin, never past Playwright MCP's.
 */
const PLAYWRIGHT_MCP_0_0_83_TOOLS_LIST_TOKENS = 4396;
const TOOLS_LIST_BUDGET = 4250;

type Args = Record<string, unknown>;
interface Sent {
  action: string;
  params: Args;
}

/** A tool context whose agent records what would go to the bridge and answers success. */
function recordingContext(): { ctx: ToolContext; sent: Sent[] } {
  const sent: Sent[] = [];
  const agent = {
    call: (action: string, params: Args): Promise<ActionResultMessage> => {
      sent.push({ action, params });
      const result: Record<string, unknown> =
        action === 'list_tabs'
          ? {
              tabs: [
                { tab_id: 11, url: 'http://a/', title: 'A', active: false, window_id: 1 },
                { tab_id: 12, url: 'http://b/', title: 'B', active: true, window_id: 1 },
              ],
            }
          : action === 'screenshot'
            ? { data_base64: 'iVBORw0KGgo=', width: 1, height: 1 }
            : {};
      return Promise.resolve({
        type: 'action_result',
        original_action_id: 'x',
        action: action as never,
        status: 'success',
        tab_id: 12,
        outcome_details: { message: `${action} done`, result },
        new_simplified_state: null,
      } as unknown as ActionResultMessage);
    },
  } as unknown as AgentClient;
  const ctx: ToolContext = { agent: () => Promise.resolve(agent), memory: new SnapshotMemory(), myTabs: new Set(), takeNotice: () => null };
  return { ctx, sent };
}

async function run(name: string, args: Args) {
  const { ctx, sent } = recordingContext();
  const tool = TOOL_BY_NAME.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const res = await runTool(tool, args, ctx);
  const first = res.content[0];
  return { res, text: first?.type === 'text' ? first.text : '', sent };
}

describe('mcp: tools/list fits the model context', () => {
  let session: McpSession;
  let client: Client;
  before(async () => {
    // No bridge needed: tools/list never reaches it (the bridge session starts at the first tool call).
    session = createMcpSession({ url: 'ws://127.0.0.1:9/agent', secret: 'x'.repeat(43) });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await session.server.connect(a);
    client = new Client({ name: 'budget', version: '1' });
    await client.connect(b);
  });
  after(async () => {
    await client.close();
    await session.close();
  });

  it(`costs at most ${TOOLS_LIST_BUDGET} tokens, below Playwright MCP 0.0.83's ${PLAYWRIGHT_MCP_0_0_83_TOOLS_LIST_TOKENS}`, async () => {
    const { tools } = await client.listTools();
    const tokens = countTokens(JSON.stringify(tools));
    expect(tools.length).to.equal(22);
    expect(TOOLS_LIST_BUDGET).to.be.at.most(PLAYWRIGHT_MCP_0_0_83_TOOLS_LIST_TOKENS);
    expect(tokens, `tools/list is ${tokens} tokens`).to.be.at.most(TOOLS_LIST_BUDGET);
  });

  it('answers a call while the bridge is down with one message: what is wrong and what to do, no gloss, no npx', async () => {
    const r = await client.callTool({ name: 'browser_snapshot', arguments: {} });
    expect(r.isError).to.equal(true);
    const content = r.content as { type: string; text: string }[];
    expect(content).to.have.length(1);
    expect(content[0]?.text).to.equal(
      'Error COMMUNICATION_ERROR_WITH_TARGET: Cannot reach the browser-use-ext bridge at ws://127.0.0.1:9/agent: it is not running, or runs on another port. ' +
        `Ask the person to start it (${cli('bridge')}) with the extension paired, then call the tool again.`,
    );
  });
});

describe('mcp: argument errors name the argument and what it expects', () => {
  const cases: [string, Args, string][] = [
    [
      'browser_click',
      {},
      'browser_click: `ref` is required (the ref of the element from the last snapshot, e.g. e12; or `role` + `name`, or `selector`).',
    ],
    ['browser_click', { ref: 'e1', selector: 'button' }, 'browser_click: give the element once, not `ref` and `selector`.'],
    ['browser_click', { target: 'e1', ref: 'e2' }, 'browser_click: give the element once: `target` and `ref` both name it.'],
    ['browser_click', { ref: 'e1', button: 'top' }, 'browser_click: `button` must be one of left, right, middle (got "top").'],
    ['browser_click', { ref: 'e1', click_count: 5 }, 'browser_click: `click_count` must be an integer from 1 to 3 (got 5).'],
    [
      'browser_click',
      { ref: 'e1', depth: 2 },
      'browser_click: `depth` is not an argument; it takes `ref`, `role`, `name`, `exact`, `selector`, `button`, `click_count`, `modifiers`, `timeout_ms`, `force`, `trusted`, `element`, `tab_id`, `snapshot`.',
    ],
    ['browser_click', { role: 'button', exact: 'yes' }, 'browser_click: `exact` must be true or false (got "yes").'],
    ['browser_click', { ref: 'e1', name: 'Go' }, 'browser_click: `name` needs `role` too (ARIA role, e.g. button, link, textbox).'],
    ['browser_type', { ref: 'e1' }, 'browser_type: `text` is required (Typed at the end of the value; "\\n" presses Enter).'],
    ['browser_type', { ref: 'e1', text: 'x'.repeat(10_001) }, 'browser_type: `text` is too long: at most 10000 characters.'],
    ['browser_navigate', { url: 42 }, 'browser_navigate: `url` must be a string (got 42).'],
    [
      'browser_drag',
      { ref: 'e1' },
      'browser_drag: `to` is required (the drop target: `{"ref": "e12"}`, or role + name, or selector; or `to_point`).',
    ],
    [
      'browser_drag',
      { ref: 'e1', to: {} },
      'browser_drag: `to.ref` is required (the ref of the drop target from the last snapshot, e.g. e12; or `to.role` + `to.name`, or `to.selector`).',
    ],
    [
      'browser_fill_form',
      { fields: [{ ref: 'e1', value: 'a' }, { value: 'b' }] },
      'browser_fill_form: `fields[1].ref` is required (the ref of the field from the last snapshot, e.g. e12; or `fields[1].role` + `fields[1].name`, or `fields[1].selector`).',
    ],
    ['browser_fill_form', { fields: [{ ref: 'e1' }] }, 'browser_fill_form: `fields[0].value` is required (a string).'],
    [
      'browser_tabs',
      {},
      'browser_tabs: `action` is required (list: every tab, yours marked; new: open a tab of yours (url); select/close: one of your tabs (tab_id; close defaults to the current one).).',
    ],
    ['browser_snapshot', { viewport_expansion: -2 }, 'browser_snapshot: `viewport_expansion` must be an integer of at least -1 (got -2).'],
  ];
  for (const [tool, args, message] of cases)
    it(`${tool} ${JSON.stringify(args).slice(0, 60)}`, async () => {
      const { res, text, sent } = await run(tool, args);
      expect(res.isError).to.equal(true);
      expect(res.content).to.have.length(1);
      expect(text).to.equal(`Error INVALID_MESSAGE: ${message}`);
      expect(sent, 'nothing reached the bridge').to.deep.equal([]);
    });
});

describe("mcp: Playwright MCP's argument shapes (0.0.83, and ref from earlier versions) run as ours", () => {
  // tool, Playwright MCP arguments, what goes to the bridge.
  const cases: [string, Args, Sent[]][] = [
    ['browser_click', { element: 'Submit button', ref: 'e12' }, [{ action: 'click', params: { element_id: 'e12' } }]],
    ['browser_click', { element: 'Submit button', target: 'e12' }, [{ action: 'click', params: { element_id: 'e12' } }]],
    [
      'browser_click',
      { element: 'Submit', target: 'form button.primary' },
      [{ action: 'click', params: { selector: 'form button.primary' } }],
    ],
    [
      'browser_click',
      { element: 'Row', target: 'f2e7', doubleClick: true, button: 'left', modifiers: ['Shift'] },
      [{ action: 'click', params: { element_id: 'f2e7', click_count: 2, button: 'left', modifiers: ['Shift'] } }],
    ],
    ['browser_hover', { element: 'Menu', target: 'e3' }, [{ action: 'hover', params: { element_id: 'e3' } }]],
    [
      'browser_type',
      { element: 'Search', target: 'e4', text: 'paper', submit: true, slowly: false },
      [{ action: 'type', params: { element_id: 'e4', text: 'paper\n' } }],
    ],
    [
      'browser_select_option',
      { element: 'Size', target: 'e5', values: ['M'] },
      [{ action: 'select_option', params: { element_id: 'e5', values: ['M'] } }],
    ],
    [
      'browser_drag',
      { startElement: 'Card', startTarget: 'e6', endElement: 'Done column', endTarget: 'e7' },
      [{ action: 'drag_and_drop', params: { element_id: 'e6', to: { element_id: 'e7' } } }],
    ],
    [
      'browser_fill_form',
      {
        fields: [
          { name: 'Email', type: 'textbox', target: 'e1', value: 'a@b.c' },
          { name: 'Subscribe', type: 'checkbox', target: 'e2', value: 'true' },
          { name: 'Spam', type: 'checkbox', target: 'e3', value: 'false' },
          { name: 'Plan', type: 'radio', target: 'e4', value: 'true' },
          { name: 'Size', type: 'combobox', target: 'e5', value: 'M' },
        ],
      },
      [
        { action: 'fill', params: { element_id: 'e1', value: 'a@b.c' } },
        { action: 'check', params: { element_id: 'e2' } },
        { action: 'uncheck', params: { element_id: 'e3' } },
        { action: 'check', params: { element_id: 'e4' } },
        { action: 'select_option', params: { element_id: 'e5', values: ['M'] } },
      ],
    ],
    ['browser_press_key', { key: 'ArrowLeft' }, [{ action: 'press', params: { key: 'ArrowLeft' } }]],
    ['browser_navigate', { url: 'https://example.com' }, [{ action: 'navigate', params: { url: 'https://example.com' } }]],
    ['browser_navigate_back', {}, [{ action: 'go_back', params: {} }]],
    ['browser_wait_for', { time: 1.5 }, [{ action: 'wait', params: { ms: 1500 } }]],
    ['browser_wait_for', { text: 'Done' }, [{ action: 'wait_for', params: { text: 'Done' } }]],
    ['browser_wait_for', { textGone: 'Loading' }, [{ action: 'wait_for', params: { text: 'Loading', state: 'hidden' } }]],
    ['browser_take_screenshot', { type: 'png', scale: 'css' }, [{ action: 'screenshot', params: {} }]],
    ['browser_snapshot', {}, [{ action: 'get_state', params: {} }]],
    [
      'browser_evaluate',
      { function: '() => document.title' },
      [{ action: 'evaluate', params: { expression: '(() => document.title)()' } }],
    ],
    ['browser_tabs', { action: 'list' }, [{ action: 'list_tabs', params: {} }]],
    ['browser_tabs', { action: 'new', url: 'https://example.com' }, [{ action: 'open_tab', params: { url: 'https://example.com' } }]],
    [
      'browser_tabs',
      { action: 'select', index: 0 },
      [
        { action: 'list_tabs', params: {} },
        { action: 'switch_tab', params: { tab_id: 11 } },
      ],
    ],
    [
      'browser_tabs',
      { action: 'close', index: 1 },
      [
        { action: 'list_tabs', params: {} },
        { action: 'close_tab', params: { tab_id: 12 } },
      ],
    ],
  ];
  for (const [tool, args, expected] of cases)
    it(`${tool} ${JSON.stringify(args).slice(0, 80)}`, async () => {
      const { res, text, sent } = await run(tool, args);
      expect(res.isError ?? false, text).to.equal(false);
      expect(sent).to.deep.equal(expected);
    });

  it('names the element the client described when the action fails, in the one error message', async () => {
    const tool = TOOL_BY_NAME.get('browser_click')!;
    const agent = {
      call: () =>
        Promise.resolve({
          type: 'action_result',
          original_action_id: 'x',
          action: 'click',
          status: 'error',
          outcome_details: null,
          new_simplified_state: null,
          error_info: {
            error_code: 'TARGET_ELEMENT_NOT_FOUND',
            message: 'No element e12 on the page now. Take a new snapshot.',
            component_origin: 'extension',
          },
        }),
    } as unknown as AgentClient;
    const ctx: ToolContext = {
      agent: () => Promise.resolve(agent),
      memory: new SnapshotMemory(),
      myTabs: new Set(),
      takeNotice: () => null,
    };
    const res = await runTool(tool, { element: 'Submit button', ref: 'e12' }, ctx);
    expect(res.isError).to.equal(true);
    expect(res.content).to.have.length(1);
    expect((res.content[0] as { text: string }).text).to.equal(
      'Error TARGET_ELEMENT_NOT_FOUND: "Submit button": No element e12 on the page now. Take a new snapshot.',
    );
  });

  it('ControlOrMeta is the platform key; element_id (the protocol name) still works', () => {
    const { args } = normalizeArgs('browser_click', { element_id: 'e1', modifiers: ['ControlOrMeta'] });
    expect(args).to.deep.equal({ ref: 'e1', modifiers: [process.platform === 'darwin' ? 'Meta' : 'Control'] });
  });
});
