// The side panel reads like a conversation: a task's thread (the person's words and the agent's steps
// in the order they happened, plain words for actions, the answer once), one entry per agent (a
// program and the session running its task are one; older agents without parent_session_id stand
// alone) and the toolbar badge's state. Pure modules, no browser.
import { expect } from 'chai';

import { badgeFor } from '../../extension/src/background/panel/action-badge';
import { agentEntries, workingCount } from '../../extension/src/shared/agent-entries';
import { agentLabel, taskOfSessionName } from '../../extension/src/shared/agent-names';
import type { AgentSessionInfo, TaskLogEntry, TaskRecord } from '../../extension/src/shared/panel-messages';
import { actionWords } from '../../extension/src/sidepanel/action-words';
import { taskThread, type ThreadItem } from '../../extension/src/sidepanel/task-thread';

let clock = 0;
const entry = (status: string, message: string, extra: Partial<TaskLogEntry> = {}): TaskLogEntry => ({
  at: ++clock,
  status,
  message,
  ...extra,
});
const stepEntry = (n: number, goal: string, actions: NonNullable<TaskLogEntry['details']>['actions'] = []): TaskLogEntry =>
  entry('step', goal, { step: n, details: { next_goal: goal, actions } });
const task = (state: TaskRecord['state'], log: TaskLogEntry[], final_result: string | null = null): TaskRecord => ({
  task_id: 'task-1',
  prompt: 'Find the cheapest stapler',
  url: 'https://shop.test/',
  page_title: 'Shop',
  submitted_at: 0,
  state,
  log,
  final_result,
});
/** The thread in short words: "step 1", "you: text", "stop", "answer done: text". */
const brief = (items: ThreadItem[]): string[] =>
  items.map((i) => {
    switch (i.kind) {
      case 'step':
        return `step ${i.step}${i.actions.length ? `: ${i.actions.map((a) => a.words).join(', ')}` : ''}`;
      case 'redirect':
        return `you: ${i.text}`;
      case 'stop':
        return 'stop';
      case 'note':
        return `note: ${i.text}`;
      case 'waiting':
        return 'waiting';
      case 'answer':
        return `answer ${i.ending}: ${i.text}${i.reason ? ` (${i.reason})` : ''}`;
    }
  });

const PLUMBING = [
  entry('submitted', 'Sent to the bridge.'),
  entry('accepted', 'Accepted: Find the cheapest stapler'),
  entry('running', 'Running'),
];

describe('unit: task thread (the side panel reads a task like a conversation)', () => {
  it('no plumbing lines before step 1, actions in plain words, the answer once (not also as the done action or the message)', () => {
    const t = task(
      'done',
      [
        ...PLUMBING,
        stepEntry(1, 'Search for staplers', [
          { name: 'input_text', params: { index: 4, text: 'stapler' }, result: 'Input stapler into index 4' },
          { name: 'click_element_by_index', params: { index: 3 }, result: '🖱️ Clicked button with index 3' },
        ]),
        stepEntry(2, 'Report', [
          { name: 'done', params: { text: 'Mini Stapler $3.99', success: true }, result: 'Mini Stapler $3.99', is_done: true },
        ]),
        entry('done', 'Mini Stapler $3.99', {}),
      ],
      'Mini Stapler $3.99',
    );
    expect(brief(taskThread(t))).to.deep.equal([
      "step 1: Type 'stapler' into element 4, Click element 3",
      'step 2',
      'answer done: Mini Stapler $3.99',
    ]);
    expect(JSON.stringify(taskThread(t))).to.not.contain('{"index"');
  });

  it("the agent's own description wins; the element's text when the panel words it; unknown actions in words", () => {
    expect(actionWords({ name: 'click_element_by_index', params: { index: 3 }, description: "Click 'Add to cart'" })).to.equal(
      "Click 'Add to cart'",
    );
    expect(actionWords({ name: 'click_element_by_index', params: { index: 3 } })).to.equal('Click element 3');
    expect(actionWords({ name: 'click', params: { element_text: 'Add to cart', index: 3 } })).to.equal("Click 'Add to cart'");
    expect(actionWords({ name: 'go_to_url', params: { url: 'https://www.example.com/a?b=1' } })).to.equal('Open example.com');
    expect(actionWords({ name: 'scroll_down', params: {} })).to.equal('Scroll down');
    expect(actionWords({ name: 'my_custom_thing', params: { x: 1 } })).to.equal('My custom thing');
  });

  it('a Stop pressed while step 1 ran shows after step 1, then the outcome', () => {
    const t = task('stopped', [
      ...PLUMBING,
      entry('stop_requested', 'Stop requested…'),
      stepEntry(1, 'Open the shop'),
      entry('stopped', 'Stopped.'),
    ]);
    expect(brief(taskThread(t))).to.deep.equal(['step 1', 'stop', 'answer stopped: Stopped after 1 step.']);
  });

  it('a Stop before any step ran says so', () => {
    const t = task('stopped', [...PLUMBING, entry('stop_requested', 'Stop requested…'), entry('stopped', 'Stopped.')]);
    expect(brief(taskThread(t))).to.deep.equal(['stop', 'answer stopped: Stopped before the first step.']);
  });

  it("redirects sit where the person sent them, in order; the agent's echo of one is no line of its own", () => {
    const t = task(
      'done',
      [
        ...PLUMBING,
        stepEntry(1, 'Search'),
        entry('redirect_sent', 'You: only under $5'),
        entry('running', 'Redirected: only under $5 (the agent takes it at its next step)'),
        entry('running', 'Working'),
        stepEntry(2, 'Filter by price'),
        entry('redirect_sent', 'You: blue ones'),
        stepEntry(3, 'Pick a blue one'),
        entry('done', 'Done'),
      ],
      'Blue Mini $3.99',
    );
    expect(brief(taskThread(t))).to.deep.equal([
      'step 1',
      'you: only under $5',
      'step 2',
      'you: blue ones',
      'step 3',
      'answer done: Blue Mini $3.99',
    ]);
  });

  it('the outcome comes once, even when the agent reports an ending twice; a step reported twice stays one', () => {
    const t = task(
      'incomplete',
      [
        ...PLUMBING,
        stepEntry(1, 'Look'),
        stepEntry(1, 'Look'),
        entry('incomplete', 'Not completed: the agent used all its 1 steps without finishing.'),
        entry('incomplete', 'Not completed: the agent used all its 1 steps without finishing.'),
      ],
      'I saw three staplers',
    );
    expect(brief(taskThread(t))).to.deep.equal([
      'step 1',
      'answer incomplete: I saw three staplers (Not completed: the agent used all its 1 steps without finishing.)',
    ]);
  });

  it('a final message that repeats the answer is not shown again; a task still waiting says so', () => {
    const t = task(
      'incomplete',
      [...PLUMBING, entry('incomplete', 'Not completed. The agent says it did not reach the goal: No form')],
      'No form',
    );
    expect(brief(taskThread(t))).to.deep.equal(['answer incomplete: No form']);
    const said = task(
      'incomplete',
      [...PLUMBING, entry('incomplete', 'Not completed: the agent says it did not reach the goal.')],
      'No form',
    );
    expect(brief(taskThread(said)), 'a message that only says the outcome').to.deep.equal(['answer incomplete: No form']);
    expect(brief(taskThread(task('accepted', PLUMBING.slice(0, 2))))).to.deep.equal(['waiting']);
  });
});

const session = (id: string, name: string, extra: Partial<AgentSessionInfo> = {}): AgentSessionInfo => ({
  session_id: id,
  client: { name, version: '1.0' },
  capabilities: [],
  connected: true,
  tabs: [],
  task_ids: [],
  max_tabs: 10,
  ...extra,
});

describe('unit: agent entries (one entry per agent)', () => {
  const serve = session('s-serve', 'browser-use-ext-python-serve', {
    client: { name: 'browser-use-ext-python-serve', version: '1.0', model: 'gpt-4o' },
    capabilities: ['accepts_tasks'],
    task_ids: ['task-1'],
  });
  const child = session('s-task', 'browser-use-ext-python', {
    parent_session_id: 's-serve',
    tabs: [{ tab_id: 7, url: 'https://shop.test/' }],
  });
  const cdp = session('s-cdp', 'cdp:scraper', { tabs: [{ tab_id: 9, url: null }] });

  it('a session carrying out a task folds into the one holding it, named by the child with the model', () => {
    const entries = agentEntries([serve, child, cdp]);
    expect(entries.map((e) => [e.head.session_id, e.children.map((c) => c.session_id), e.label])).to.deep.equal([
      ['s-serve', ['s-task'], 'browser_use agent · gpt-4o'],
      ['s-cdp', [], 'scraper (CDP client)'],
    ]);
    expect(workingCount([serve, child, cdp])).to.equal(2);
  });

  it("a task session's own name ('browser-use-ext serve, running \"...\"') reads as its agent's kind, the task apart", () => {
    const named = session('s-named', 'browser-use-ext serve, running "Find a pen"', {
      client: { name: 'browser-use-ext serve, running "Find a pen"', version: '1.0', model: 'gpt-4o' },
      parent_session_id: 's-serve',
    });
    expect(agentEntries([serve, named]).map((e) => e.label)).to.deep.equal(['browser_use agent · gpt-4o']);
    expect(agentLabel({ name: 'browser-use-ext built-in agent, running "x"', version: '1', model: 'm' })).to.equal('Built-in agent · m');
    expect(taskOfSessionName('browser-use-ext serve, running "Find a pen"')).to.equal('Find a pen');
    expect(taskOfSessionName('browser-use-ext-python-serve')).to.equal(null);
  });

  it('without parent_session_id (older agents) or with its parent not listed, each session stands alone', () => {
    const orphan = { ...child, parent_session_id: 's-gone' };
    expect(agentEntries([serve, orphan]).map((e) => e.head.session_id)).to.deep.equal(['s-serve', 's-task']);
    const { parent_session_id: _, ...old } = child;
    expect(agentEntries([serve, old]).length).to.equal(2);
  });
});

describe('unit: toolbar badge', () => {
  const working = session('a', 'mcp:claude', { tabs: [{ tab_id: 1, url: null }] });
  it('says not paired and unreachable, never looks connected then', () => {
    expect(badgeFor('not_paired', [working]))
      .to.include({ text: '!' })
      .and.satisfy((b: { title: string }) => b.title.includes('not paired'));
    const down = badgeFor('unreachable', [working]);
    expect(down.text).to.equal('!');
    expect(down.title).to.contain('not reachable');
    expect(badgeFor('secret_refused', []).text).to.equal('!');
    expect(badgeFor('connecting', []).text).to.equal('…');
  });
  it('connected: no badge while idle, the count of agents at work otherwise', () => {
    expect(badgeFor('connected', []).text).to.equal('');
    expect(badgeFor('connected', [session('idle', 'mcp:x')]).text).to.equal('');
    expect(badgeFor('connected', [working, session('b', 'cdp:x', { task_ids: ['t'] })])).to.include({ text: '2' });
  });
});
