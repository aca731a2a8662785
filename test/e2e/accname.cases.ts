// Accessible name and role cases written from the rules the WPT accname (accname/name/comp_*.html,
// manual name_test_case_*) and html-aam (html-aam/roles*.html) suites test, one rule per case, in
// our own words. `name`/`role` are what the spec says; accname.spec.ts checks our computation
// against them and against Chromium's own accessibility tree. `chromium` records where Chromium
// does not follow the spec (what it gives instead); the spec value is then what we must produce.
export interface NameCase {
  title: string;
  /** Markup; the element under test has id="test". */
  html: string;
  name: string;
  role?: string;
  /** Chromium's answer where it deviates from the spec (documented in README "Names and roles"). */
  chromium?: string;
}

const IMG = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

export const NAME_CASES: NameCase[] = [
  // --- 2B aria-labelledby --------------------------------------------------------------------
  {
    title: 'labelledby: several ids joined with spaces, in id order',
    html: `<span id="a">Billing</span><span id="b">Name</span><input id="test" aria-labelledby="b a">`,
    name: 'Name Billing',
    role: 'textbox',
  },
  {
    title: 'labelledby wins over aria-label',
    html: `<span id="l">From label</span><button id="test" aria-label="aria" aria-labelledby="l">content</button>`,
    name: 'From label',
    role: 'button',
  },
  {
    title: 'labelledby self-reference uses own aria-label',
    html: `<span id="l1">Delete</span><button id="test" aria-label="file.txt" aria-labelledby="l1 test">x</button>`,
    name: 'Delete file.txt',
    role: 'button',
  },
  {
    title: 'labelledby to a hidden element: its whole content counts',
    html: `<div id="h" hidden>Hidden <span>label</span></div><button id="test" aria-labelledby="h">visible</button>`,
    name: 'Hidden label',
    role: 'button',
  },
  {
    title: 'labelledby to a display:none element with hidden child',
    html: `<div id="h" style="display:none">Outer <span style="visibility:hidden">inner</span></div><a id="test" href="#" aria-labelledby="h">x</a>`,
    name: 'Outer inner',
    role: 'link',
  },
  {
    title: 'labelledby to a visible element: its hidden descendants do not count',
    html: `<div id="v">Visible <span hidden>secret</span><span aria-hidden="true">decor</span> end</div><button id="test" aria-labelledby="v">x</button>`,
    name: 'Visible end',
    role: 'button',
  },
  {
    title: 'labelledby is not followed twice',
    html: `<span id="a" aria-labelledby="b">A text</span><span id="b">B text</span><button id="test" aria-labelledby="a">x</button>`,
    name: 'A text',
    role: 'button',
  },
  {
    title: 'labelledby to an element with aria-label uses that label',
    html: `<span id="a" aria-label="Labelled">content</span><button id="test" aria-labelledby="a">x</button>`,
    name: 'Labelled',
    role: 'button',
  },
  {
    title: 'labelledby with only unknown ids falls back',
    html: `<button id="test" aria-labelledby="nope">Fallback</button>`,
    name: 'Fallback',
    role: 'button',
  },

  // --- 2C embedded controls --------------------------------------------------------------------
  {
    title: 'label with embedded textbox uses its value',
    html: `<input type="checkbox" id="test"><label for="test">Flash the screen <input value="3"> times</label>`,
    name: 'Flash the screen 3 times',
    role: 'checkbox',
  },
  {
    title: 'label with embedded select uses the selected option',
    html: `<input type="checkbox" id="test"><label for="test">Flash <select><option>1</option><option selected>2</option></select> times</label>`,
    name: 'Flash 2 times',
    role: 'checkbox',
  },
  {
    title: 'label with embedded ARIA listbox uses the selected option',
    html: `<input type="checkbox" id="test"><label for="test">Flash <ul role="listbox" style="list-style:none;display:inline-block;margin:0;padding:0"><li role="option" aria-selected="true">4</li><li role="option">5</li></ul> times</label>`,
    name: 'Flash 4 times',
    role: 'checkbox',
  },
  {
    title: 'label with embedded range uses its value',
    html: `<input type="checkbox" id="test"><label for="test">Volume <input type="range" min="0" max="10" value="7"> level</label>`,
    name: 'Volume 7 level',
    role: 'checkbox',
  },
  {
    title: 'label with embedded spinbutton uses aria-valuenow',
    html: `<input type="checkbox" id="test"><label for="test">Repeat <span role="spinbutton" aria-valuenow="4" aria-valuemin="1" aria-valuemax="9" tabindex="0"></span> times</label>`,
    name: 'Repeat 4 times',
    role: 'checkbox',
  },
  {
    title: 'embedded slider prefers aria-valuetext',
    html: `<input type="checkbox" id="test"><label for="test">Speed <span role="slider" aria-valuenow="2" aria-valuetext="fast" tabindex="0"></span></label>`,
    name: 'Speed fast',
    role: 'checkbox',
  },
  {
    title: 'labelledby to a textbox uses its value',
    html: `<input id="v" value="Dr."><button id="test" aria-labelledby="v">x</button>`,
    name: 'Dr.',
    role: 'button',
  },
  {
    title: 'a control wrapped by its own label is not part of its name',
    html: `<label>Email <input id="test" value="ada@example.com"> address</label>`,
    name: 'Email address',
    role: 'textbox',
  },

  // --- 2D aria-label / 2E native -----------------------------------------------------------------
  { title: 'aria-label beats content', html: `<a id="test" href="#" aria-label="Close dialog">X</a>`, name: 'Close dialog', role: 'link' },
  {
    title: 'whitespace-only aria-label is ignored',
    html: `<button id="test" aria-label="   ">Real</button>`,
    name: 'Real',
    role: 'button',
  },
  { title: 'label for=', html: `<label for="test">First name</label><input id="test">`, name: 'First name', role: 'textbox' },
  {
    title: 'two labels are joined',
    html: `<label for="test">Phone</label><input id="test"><label for="test">(mobile)</label>`,
    name: 'Phone (mobile)',
    role: 'textbox',
  },
  {
    title: 'a display:none label does not name its control (not referenced directly, 2A)',
    html: `<label for="test" style="display:none">Search terms</label><input id="test">`,
    name: '',
    role: 'textbox',
  },
  { title: 'img alt', html: `<a id="test" href="#"><img src="${IMG}" alt="Home"></a>`, name: 'Home', role: 'link' },
  {
    title: 'img alt in button with text',
    html: `<button id="test"><img src="${IMG}" alt="Save"> now</button>`,
    name: 'Save now',
    role: 'button',
  },
  {
    title: 'presentational img: its alt is not used',
    html: `<button id="test"><img src="${IMG}" role="presentation" alt="ignored">OK</button>`,
    name: 'OK',
    role: 'button',
  },
  { title: 'input type=button value', html: `<input type="button" id="test" value="Go">`, name: 'Go', role: 'button' },
  { title: 'input type=submit without value: default label', html: `<input type="submit" id="test">`, name: 'Submit', role: 'button' },
  { title: 'input type=reset without value: default label', html: `<input type="reset" id="test">`, name: 'Reset', role: 'button' },
  { title: 'input type=button without value has no name', html: `<input type="button" id="test">`, name: '', role: 'button' },
  {
    title: 'input type=image: alt',
    html: `<input type="image" id="test" src="${IMG}" alt="Search" value="v" title="t">`,
    name: 'Search',
    role: 'button',
  },
  {
    title: 'input type=image: no alt, value',
    html: `<input type="image" id="test" src="${IMG}" value="Find" title="t">`,
    name: 'Find',
    role: 'button',
  },
  {
    title: 'input type=image: only title',
    html: `<input type="image" id="test" src="${IMG}" title="Lookup">`,
    name: 'Lookup',
    role: 'button',
  },
  { title: 'input type=image: nothing -> Submit', html: `<input type="image" id="test" src="${IMG}">`, name: 'Submit', role: 'button' },
  {
    title: 'input type=image: label wins',
    html: `<label for="test">Labelled image</label><input type="image" id="test" src="${IMG}" alt="alt">`,
    name: 'Labelled image',
    role: 'button',
  },
  {
    title: 'input type=file with a label',
    html: `<label for="test">Upload CV</label><input type="file" id="test">`,
    name: 'Upload CV',
    role: 'button',
  },
  { title: 'input type=file with aria-label', html: `<input type="file" id="test" aria-label="Attach">`, name: 'Attach', role: 'button' },
  { title: 'fieldset legend', html: `<fieldset id="test"><legend>Shipping</legend><input></fieldset>`, name: 'Shipping', role: 'group' },
  { title: 'table caption', html: `<table id="test"><caption>Prices</caption><tr><td>1</td></tr></table>`, name: 'Prices', role: 'table' },
  {
    title: 'figure figcaption',
    html: `<figure id="test"><img src="${IMG}" alt="x"><figcaption>Chart 1</figcaption></figure>`,
    name: 'Chart 1',
    role: 'figure',
    chromium: '',
  },
  {
    title: 'select named by its label',
    html: `<label for="test">Country</label><select id="test"><option>DE</option></select>`,
    name: 'Country',
    role: 'combobox',
  },
  {
    title: 'option name is its text',
    html: `<select size="3"><option id="test">Red wine</option></select>`,
    name: 'Red wine',
    role: 'option',
  },
  {
    title: 'option label attribute',
    html: `<select size="3"><option id="test" label="Short">Long text</option></select>`,
    name: 'Short',
    role: 'option',
  },

  // --- 2F name from content -----------------------------------------------------------------------
  { title: 'inline elements join without spaces', html: `<button id="test">Sub<span>mit</span></button>`, name: 'Submit', role: 'button' },
  {
    title: 'block elements are separated',
    html: `<a id="test" href="#"><div>Product</div><div>42 EUR</div></a>`,
    name: 'Product 42 EUR',
    role: 'link',
  },
  {
    title: 'aria-hidden content is not part of the name',
    html: `<button id="test"><span aria-hidden="true">★</span>Favourite</button>`,
    name: 'Favourite',
    role: 'button',
  },
  {
    title: 'display:none content is not part of the name',
    html: `<a id="test" href="#">Read <span style="display:none">(opens menu)</span>more</a>`,
    name: 'Read more',
    role: 'link',
  },
  {
    title: 'visibility:hidden content is not part of the name',
    html: `<button id="test">Next<span style="visibility:hidden"> page</span></button>`,
    name: 'Next',
    role: 'button',
  },
  {
    title: 'nested element with aria-label inside content',
    html: `<a id="test" href="#"><span aria-label="Twitter">t</span> profile</a>`,
    name: 'Twitter profile',
    role: 'link',
  },
  {
    title: '::before content is part of the name',
    html: `<style>#test::before{content:"Step "}</style><button id="test">one</button>`,
    name: 'Step one',
    role: 'button',
  },
  {
    title: '::after content is part of the name',
    html: `<style>#test::after{content:" (new)"}</style><a id="test" href="#">Inbox</a>`,
    name: 'Inbox (new)',
    role: 'link',
  },
  {
    title: '::before with alt text after a slash',
    html: `<style>#test::before{content:"\\2192" / "Go to"}</style><a id="test" href="#"> docs</a>`,
    name: 'Go to docs',
    role: 'link',
  },
  {
    title: '::before on a descendant',
    html: `<style>.ic::before{content:"Edit"}</style><button id="test"><span class="ic"></span></button>`,
    name: 'Edit',
    role: 'button',
  },
  {
    title: 'title is the last resort for a button',
    html: `<button id="test" title="Settings"><svg width="10" height="10"></svg></button>`,
    name: 'Settings',
    role: 'button',
  },
  { title: 'content beats title', html: `<a id="test" href="#" title="tooltip">Text</a>`, name: 'Text', role: 'link' },
  {
    title: 'placeholder when nothing else names a textbox',
    html: `<input id="test" placeholder="Search docs">`,
    name: 'Search docs',
    role: 'textbox',
  },
  { title: 'title beats placeholder', html: `<input id="test" title="Query" placeholder="Type here">`, name: 'Query', role: 'textbox' },
  {
    title: 'role=button div named from content',
    html: `<div id="test" role="button" tabindex="0">Custom <b>action</b></div>`,
    name: 'Custom action',
    role: 'button',
  },
  { title: 'heading named from content', html: `<h2 id="test">Section <em>two</em></h2>`, name: 'Section two', role: 'heading' },
  {
    title: 'textbox is not named from its content',
    html: `<div id="test" role="textbox" contenteditable="true" aria-label="Message">Hello</div>`,
    name: 'Message',
    role: 'textbox',
  },
  {
    title: 'link with only an image without alt: the title of the image',
    html: `<a id="test" href="#"><img src="${IMG}" title="Profile"></a>`,
    name: 'Profile',
    role: 'link',
  },
  {
    title: 'checkbox named from an ancestor label with nested markup',
    html: `<label><input type="checkbox" id="test"> I accept the <a href="#">terms</a></label>`,
    name: 'I accept the terms',
    role: 'checkbox',
  },

  // --- more hidden / presentational / embedded combinations --------------------------------------------
  { title: 'input type=file without a label: its button text', html: `<input type="file" id="test">`, name: 'Choose File', role: 'button' },
  {
    title: 'input type=file multiple without a label',
    html: `<input type="file" id="test" multiple>`,
    name: 'Choose Files',
    role: 'button',
  },
  {
    title: 'input type=file: title is a description, the button text the name',
    html: `<input type="file" id="test" title="Resume">`,
    name: 'Choose File',
    role: 'button',
  },
  {
    title: 'aria-hidden subtree inside labelledby target of a visible node is skipped',
    html: `<div id="l">Price <span aria-hidden="true"><b>$</b></span>10</div><span id="test" role="button" tabindex="0" aria-labelledby="l">x</span>`,
    name: 'Price 10',
    role: 'button',
  },
  {
    title: 'labelledby to an aria-hidden element counts (referenced directly)',
    html: `<span id="l" aria-hidden="true">Hidden but referenced</span><button id="test" aria-labelledby="l">x</button>`,
    name: 'Hidden but referenced',
    role: 'button',
  },
  {
    title: 'role=presentation span inside a link keeps its text',
    html: `<a id="test" href="#"><span role="presentation">Kept</span> text</a>`,
    name: 'Kept text',
    role: 'link',
  },
  {
    title: 'role=none img with alt in a link: alt not used, so the link title names it',
    html: `<a id="test" href="#" title="Home page"><img src="${IMG}" role="none" alt="logo"></a>`,
    name: 'Home page',
    role: 'link',
  },
  {
    title: 'img alt="" inside a button with text',
    html: `<button id="test"><img src="${IMG}" alt="">Print</button>`,
    name: 'Print',
    role: 'button',
  },
  {
    title: 'embedded textbox via labelledby chain',
    html: `<span id="a">Send</span><input id="b" value="5"><span id="c">copies</span><button id="test" aria-labelledby="a b c">x</button>`,
    name: 'Send 5 copies',
    role: 'button',
  },
  {
    title: 'embedded select in aria-labelledby target',
    html: `<div id="l">Sort by <select><option>name</option><option selected>date</option></select></div><div id="test" role="listbox" tabindex="0" aria-labelledby="l"></div>`,
    name: 'Sort by date',
    role: 'listbox',
  },
  {
    title: 'textarea in a label uses its value',
    html: `<input type="checkbox" id="test"><label for="test">Note: <textarea>hi there</textarea></label>`,
    name: 'Note: hi there',
    role: 'checkbox',
  },
  {
    title: 'nested inline-block elements are separated',
    html: `<button id="test"><span style="display:inline-block">One</span><span style="display:inline-block">Two</span></button>`,
    name: 'One Two',
    role: 'button',
  },
  {
    title: 'generated content on a hidden element is not used',
    html: `<style>.h::before{content:"Nope"}</style><button id="test"><span class="h" style="display:none"></span>Yes</button>`,
    name: 'Yes',
    role: 'button',
  },
  {
    title: 'attr() in generated content',
    html: `<style>#test::after{content:" " attr(data-count) " items"}</style><a id="test" href="#" data-count="3">Cart</a>`,
    name: 'Cart 3 items',
    role: 'link',
  },

  // --- roles (html-aam, core-aam conflict rule) --------------------------------------------------------
  {
    title: 'role=presentation on a focusable element is ignored',
    html: `<button id="test" role="presentation">Still a button</button>`,
    name: 'Still a button',
    role: 'button',
  },
  {
    title: 'role=none on an element with aria-label is ignored',
    html: `<h3 id="test" role="none" aria-label="Kept">text</h3>`,
    name: 'Kept',
    role: 'heading',
  },
  {
    title: 'role=presentation with tabindex is ignored',
    html: `<li id="test" role="presentation" tabindex="0">Item</li>`,
    name: '',
    role: 'listitem',
  },
  {
    title: 'unknown role token falls back to the next',
    html: `<div id="test" role="fancy button" tabindex="0">Two tokens</div>`,
    name: 'Two tokens',
    role: 'button',
  },
  { title: 'a without href is generic', html: `<a id="test">not a link</a>`, name: '', role: 'generic' },
  { title: 'section with a name is a region', html: `<section id="test" aria-label="News">x</section>`, name: 'News', role: 'region' },
  { title: 'section without a name is generic', html: `<section id="test">x</section>`, name: '', role: 'generic' },
  { title: 'header at page level is banner', html: `<header id="test">Site</header>`, name: '', role: 'banner' },
  { title: 'header inside article is generic', html: `<article><header id="test">Post</header></article>`, name: '', role: 'generic' },
  { title: 'output is status', html: `<output id="test">3</output>`, name: '', role: 'status' },
  {
    title: 'input type=number is spinbutton',
    html: `<label for="test">Qty</label><input type="number" id="test">`,
    name: 'Qty',
    role: 'spinbutton',
  },
  { title: 'input type=range is slider', html: `<label for="test">Vol</label><input type="range" id="test">`, name: 'Vol', role: 'slider' },
  { title: 'input type=search is searchbox', html: `<input type="search" id="test" aria-label="Find">`, name: 'Find', role: 'searchbox' },
  {
    title: 'input with list is combobox',
    html: `<input id="test" list="dl" aria-label="City"><datalist id="dl"><option>Berlin</option></datalist>`,
    name: 'City',
    role: 'combobox',
  },
  {
    title: 'select multiple is listbox',
    html: `<select id="test" multiple aria-label="Tags"><option>a</option></select>`,
    name: 'Tags',
    role: 'listbox',
  },
  {
    title: 'dt/dd are term and definition',
    html: `<dl><dt id="test">Term</dt><dd>Def</dd></dl>`,
    name: '',
    role: 'term',
    chromium: 'Term',
  },
  {
    title: 'th in thead is columnheader',
    html: `<table><thead><tr><th id="test">Col</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>`,
    name: 'Col',
    role: 'columnheader',
  },
  {
    title: 'th scope=row is rowheader',
    html: `<table><tr><th id="test" scope="row">Row</th><td>1</td></tr></table>`,
    name: 'Row',
    role: 'rowheader',
  },
  { title: 'td in role=grid is gridcell', html: `<table role="grid"><tr><td id="test">c</td></tr></table>`, name: 'c', role: 'gridcell' },
];
