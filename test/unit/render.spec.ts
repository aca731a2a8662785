// The three text renderings of one state (schemas/lib/render), on one shared fixture whose dom_tree
// is the hand-built tree of the browser_use 0.1.48 reference (section 1.8): renderBrowserUse must
// print that section's output exactly, tabs, `*[N]*`, dropped attributes and ` />` included.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { SimplifiedState } from '../../schemas/generated/protocol';
import { renderAriaTree, renderBrowserUse, renderBrowsingContext } from '../../schemas/lib/render';
import { REPO_ROOT } from '../harness/browser';

const { state } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'render', 'state.json'), 'utf8')) as { state: SimplifiedState };

describe('text renderings of a state', () => {
  it('browser_use 0.1.48 clickable_elements_to_string, exactly as the reference prints it', () => {
    expect(renderBrowserUse(state)).to.equal(
      [
        'Welcome to the site',
        "[0]<a title='Home'>Home />",
        '*[1]*<button >Submit />',
        "[2]<input type='text' name='q' placeholder='Search' />",
        "[3]<div role='menu'>loose text />",
        '\t[4]<span >Item A />',
        "[5]<img alt='logo' />",
        '[6]<div  />',
      ].join('\n'),
    );
  });

  it('browser_use format without a dom_tree: from the element list and text_context', () => {
    const { dom_tree: _omit, ...flat } = state;
    expect(renderBrowserUse(flat)).to.equal(
      [
        'Welcome to the site',
        "[1]<a title='Home'>Home />",
        '*[2]*<button >Submit />',
        'Search',
        "[3]<input type='text' name='q' placeholder='Search' />",
        "[4]<div role='menu'>loose text />",
        '\t[5]<span >Item A />',
        'Results | 12 found',
        "[6]<input type='password' value='[redacted:password]' />",
        "[7]<input type='checkbox' />",
      ].join('\n'),
    );
  });

  it("seed 001's accessibility-tree text", () => {
    expect(renderAriaTree(state)).to.equal(
      [
        '- heading "Welcome to the site" [level=1]',
        '- link "Home" [ref=e1]',
        '- button "Submit" [disabled] [ref=e2]',
        '- textbox "Search" [active] [ref=e3]: shoes',
        '- menu "loose text" [ref=e4]',
        '  - menuitemcheckbox "Item A" [checked] [ref=e5]',
        '- row: Results | 12 found',
        '- textbox "Password" [ref=e6]: [redacted:password]',
        '- checkbox "Remember me" [ref=f4e1]',
        '# truncated: 3 more interactive elements in scope were not listed. To see more: scroll and take a new state.',
      ].join('\n'),
    );
  });

  it("seed 002's <browsing_context> block", () => {
    expect(renderBrowsingContext(state)).to.equal(
      [
        '<browsing_context>',
        '[Target Update]',
        'URL: https://shop.test/search?q=x',
        '',
        'Interactive Elements:',
        '<a id="1" href="/home" label="Home">Home</a>',
        '<button id="2" label="Submit" disabled="true">Submit</button>',
        '<input id="3" type="text" label="Search" placeholder="Search" value="shoes">',
        '<div id="4">loose text</div>',
        '<span id="5" label="Item A" checked="true">Item A</span>',
        '<input id="6" type="password" label="Password" value="[redacted:password]">',
        '<input id="7" type="checkbox" label="Remember me" checked="false">',
        '[Truncated: 3 more interactive elements in scope were not listed. To see more: scroll and take a new state.]',
        '</browsing_context>',
      ].join('\n'),
    );
  });
});
