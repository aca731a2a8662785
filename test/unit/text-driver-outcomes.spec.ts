// The built-in agent's words for the person: how a task ends (done only when the agent says it
// reached the goal) and what each step did, without the raw JSON command.
import { expect } from 'chai';

import { parseReply } from '../../bridge/agents/text-driver/parse';
import { outcomeProgress, stepDetails, taskSessionName } from '../../bridge/agents/text-driver/task-runner';
import { commandTitle, DESCRIPTION_MAX, elementLabel, isSensitiveField } from '../../bridge/agents/text-driver/titles';

describe('built-in agent: outcomes and step titles', () => {
  it('a done command with success false is the agent saying it did not reach the goal', () => {
    expect(parseReply('<tool_code>{"action": "done", "success": false, "text": "No form here"}</tool_code>')).to.deep.equal({
      kind: 'command',
      command: { action: 'done', text: 'No form here', success: false },
    });
    expect(parseReply('<tool_code>{"action": "done", "text": "Found it"}</tool_code>')).to.deep.include({
      command: { action: 'done', text: 'Found it', success: true },
    });
  });

  it('done is reported only for a reached goal; giving up and running out of steps are incomplete with the words', () => {
    expect(outcomeProgress({ status: 'done', final: 'The pen costs $2', steps: 3 }, 10)).to.deep.equal({
      status: 'done',
      message: 'Done',
      final_result: 'The pen costs $2',
    });
    const gaveUp = outcomeProgress({ status: 'gave_up', final: 'I cannot find the form fields', steps: 2 }, 10);
    expect(gaveUp.status).to.equal('incomplete');
    expect(gaveUp.message, 'the answer once, as final_result').to.equal('Not completed: the agent says it did not reach the goal.');
    expect(gaveUp.final_result).to.equal('I cannot find the form fields');
    const outOfSteps = outcomeProgress({ status: 'max_steps', final: 'Stopped after 10 steps', steps: 10, said: 'Still looking' }, 10);
    expect(outOfSteps.status).to.equal('incomplete');
    expect(outOfSteps.message).to.contain('used all its 10 steps');
    expect(outOfSteps.final_result).to.equal('Still looking');
    expect(outcomeProgress({ status: 'stopped', final: 'Stopped by the person.', steps: 1 }, 10).status).to.equal('stopped');
  });

  it('step titles are words, never the JSON command nor a value typed into a sensitive or unknown field', () => {
    const search = elementLabel({ name: 'Search products', tag: 'input', role: 'textbox' });
    expect(commandTitle({ action: 'click', id: 4 }, elementLabel({ name: 'Add to cart', tag: 'button' }))).to.equal("Click 'Add to cart'");
    expect(commandTitle({ action: 'type', id: 3, value: 'stapler' }, search, false)).to.equal("Type 'stapler' into 'Search products'");
    expect(commandTitle({ action: 'type', id: 3, value: 'hunter2' }, search), 'not known to be safe').to.equal(
      "Type into 'Search products'",
    );
    expect(commandTitle({ action: 'type', id: 3, value: 'hunter2' }, "'Password'", true)).to.equal("Type into 'Password'");
    expect(commandTitle({ action: 'type', id: 3, value: 'x'.repeat(500) }, search, false).length).to.be.below(DESCRIPTION_MAX);
    expect(isSensitiveField({ attributes: { type: 'password' } })).to.equal(true);
    expect(isSensitiveField({ attributes: { autocomplete: 'cc-number' } })).to.equal(true);
    expect(isSensitiveField({ attributes: { type: 'text' }, redacted: { reason: 'pii' } })).to.equal(true);
    expect(isSensitiveField({ attributes: { type: 'search' } })).to.equal(false);
    expect(commandTitle({ action: 'done', text: 'ok', success: true })).to.equal('Done');
    expect(commandTitle({ action: 'click', id: 9 })).to.equal('Click element 9');
    expect(commandTitle({ action: 'open_tab', url: 'https://example.com/a' })).to.equal('Open https://example.com/a');
    expect(commandTitle({ action: 'open_tool', name: 'Hacker News' })).to.equal("Open the saved tool 'Hacker News'");
    expect(elementLabel({ name: '', text_content: '', tag: 'input', role: 'checkbox' })).to.equal('the checkbox');
    expect(elementLabel({ name: 'x'.repeat(100), tag: 'a' })).to.have.length(62);
  });

  it('each action of a step carries its plain-words description for the log', () => {
    const turn = {
      text: 'URL: https://shop.test/',
      command: { action: 'click' as const, id: 4 },
      done: false,
      error: false,
      title: "Click 'Add to cart'",
    };
    expect(stepDetails('Adding it.', turn).actions?.[0]?.description).to.equal("Click 'Add to cart'");
  });

  it("a task's own session says in words which task it runs", () => {
    expect(taskSessionName('Find  a\npen')).to.equal('browser-use-ext built-in agent, running "Find a pen"');
    expect(taskSessionName('y'.repeat(300)).length).to.be.at.most(100);
  });
});
