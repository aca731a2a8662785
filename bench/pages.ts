// Generated benchmark pages for the snapshot benches: deterministic HTML built in code, served by
// bench/page-server.ts on loopback only. The shapes real pages have that make a snapshot slow or big
// (the whole-page targets in bench/snapshot.ts are measured on them): a Wikipedia-like article
// (about 3,000 inline links, infoboxes, navboxes), a news page with a dozen cross-site ad iframes
// (some slow, some that never finish or never answer), a TodoMVC app inside thousands of hidden menu
// nodes, a 10,000-row table with two links per row; plus the earlier pages (plain long article,
// form-heavy, shadow-DOM app); a saved news article with nested cross-origin ad frames
// (pages-saved-news.ts) and a web-components TodoMVC above a big shadow-DOM catalogue
// (pages-wc-todo.ts). `BENCH_PAGES` is the list bench/snapshot.ts runs.
import { PageServer } from './page-server';
import { savedNewsPage } from './pages-saved-news';
import { wcTodoPage } from './pages-wc-todo';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const WORDS =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ');
const word = (i: number) => WORDS[i % WORDS.length] as string;

/** A 10,000-row table with two links per row (customer, order): the biggest DOM of the snapshot targets. */
export function tablePage(rows = 10_000): string {
  const out: string[] = ['<h1>Orders</h1><table><thead><tr><th>#</th><th>Customer</th><th>Order</th><th>Status</th></tr></thead><tbody>'];
  for (let i = 1; i <= rows; i++)
    out.push(
      `<tr><td>${i}</td><td><a href="/customer/${i}">Customer ${word(i)} ${i}</a></td><td><a href="/order/${i}">Order ` +
        `${i}</a></td><td>${i % 3 ? 'shipped' : 'open'}</td></tr>`,
    );
  out.push('</tbody></table>');
  return out.join('');
}

/** A long article with about 3,000 links in running text. */
export function articlePage(paragraphs = 600, linksPer = 5): string {
  const out: string[] = [
    '<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav></header><article><h1>A very long ' +
      'article</h1>',
  ];
  for (let p = 0; p < paragraphs; p++) {
    if (p % 25 === 0) out.push(`<h2>Section ${p / 25 + 1}</h2>`);
    const parts: string[] = [];
    for (let l = 0; l < linksPer; l++) {
      const n = p * linksPer + l;
      parts.push(
        `${esc(`${word(n)} ${word(n + 3)} ${word(n + 7)} and ${word(n + 11)} were discussed at length`)} <a href="/wiki/${n}">topic ` +
          `${n}</a>`,
      );
    }
    out.push(`<p>${parts.join(', ')}.</p>`);
  }
  out.push('</article><footer><a href="/terms">Terms</a></footer>');
  return out.join('');
}

/** A form-heavy page: 50 fieldsets of labelled text, e-mail, select, radios, checkbox, textarea. */
export function formPage(groups = 50): string {
  const out: string[] = ['<h1>Application form</h1><form>'];
  for (let g = 1; g <= groups; g++) {
    out.push(`<fieldset><legend>Applicant ${g}</legend>`);
    out.push(`<label for="n${g}">Name ${g}</label><input id="n${g}" name="name${g}" required>`);
    out.push(`<label>E-mail ${g} <input type="email" name="email${g}" placeholder="you@example.org"></label>`);
    out.push(
      `<label for="c${g}">Country ${g}</label><select id="c${g}" ` +
        `name="country${g}"><option>France</option><option>Germany</option><option>Japan</option><option>Peru</option><option>` +
        `Kenya</option></select>`,
    );
    out.push(
      `<div role="radiogroup" aria-label="Plan ` +
        `${g}">` +
        `${['Basic', 'Pro', 'Team'].map((p) => `<label><input type="radio" name="plan${g}" value="${p}"> ${p}</label>`).join('')}</div>`,
    );
    out.push(`<label><input type="checkbox" name="terms${g}"> Accept terms ${g}</label>`);
    out.push(`<label for="t${g}">Notes ${g}</label><textarea id="t${g}" name="notes${g}"></textarea>`);
    out.push('</fieldset>');
  }
  out.push('<button type="submit">Submit application</button></form>');
  return out.join('');
}

/** A shadow-DOM app: 300 custom-element cards (open shadow roots) with a heading, text, an input and two buttons. */
export function shadowPage(cards = 300): string {
  return `<nav>${Array.from({ length: 20 }, (_, i) => `<a href="/s/${i}">Section ${i}</a>`).join(' ')}</nav><main id="app"></main>
<script>
customElements.define('app-card', class extends HTMLElement {
  connectedCallback() {
    const n = this.getAttribute('n');
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>:host{display:block;border:1px solid #ccc;margin:4px;padding:4px}</style>' +
      '<h3>Card ' + n + '</h3><p>Description of item ' + n + '</p>' +
      '<input aria-label="Quantity ' + n + '" type="number" value="1">' +
      '<button>Add ' + n + '</button><button aria-label="More about ' + n + '">…</button>';
  }
});
const app = document.getElementById('app');
for (let i = 1; i <= ${cards}; i++) { const c = document.createElement('app-card'); c.setAttribute('n', String(i)); app.appendChild(c); }
</script>`;
}

const doc = (title: string, body: string, style = '') =>
  `<!doctype html><html lang="en"><head><meta ` +
  `charset="utf-8"><title>${esc(title)}</title>${style ? `<style>${style}</style>` : ''}</head><body>${body}</body></html>`;

/**
 * A Wikipedia-like article: site header with search, sidebar portlets, table of contents, a main
 * infobox and smaller side infoboxes, 250 paragraphs with 10 wiki links and 2 citation links each
 * (3,000 inline links), references with back-links and external links, two collapsible navboxes.
 */
export function wikiPage(sections = 25, parasPer = 10): string {
  const out: string[] = [];
  out.push(
    '<header class="mw-header"><a href="/" class="logo">WikiBench, the free benchmark</a><form role="search" action="/search"><input ' +
      'type="search" name="q" placeholder="Search WikiBench" aria-label="Search WikiBench"><button>Search</button></form>',
  );
  out.push(
    `<nav aria-label="Personal tools">${['Donate', 'Create account', 'Log in', 'Contributions', 'Talk']
      .map((t) => `<a href="/special/${t.replace(/ /g, '_')}">${t}</a>`)
      .join(' ')}</nav></header>`,
  );
  out.push('<div class="page"><nav id="mw-panel" aria-label="Site">');
  for (const [p, items] of [
    ['Navigation', 10],
    ['Contribute', 8],
    ['Tools', 12],
    ['Print/export', 4],
    ['In other projects', 6],
  ] as const) {
    out.push(
      `<div class="portlet"><h3>${p}</h3><ul>${Array.from(
        { length: items },
        (_, i) => `<li><a href="/portal/${p.replace(/\W/g, '')}/${i}">${p} ${word(i)} ${i}</a></li>`,
      ).join('')}</ul></div>`,
    );
  }
  out.push('<div class="portlet"><h3>Languages</h3><ul>');
  for (let i = 0; i < 60; i++)
    out.push(`<li><a hreflang="x${i}" href="https://l${i}.example.org/wiki/Bench">Lang ${word(i)}-${i}</a></li>`);
  out.push('</ul></div></nav><main id="content"><h1 id="firstHeading">Benchmark (computing)</h1>');
  out.push(
    '<div class="tabs"><a href="/wiki/Benchmark">Article</a> <a href="/wiki/Talk:Benchmark">Talk</a> <a href="/w/edit">Edit</a> <a ' +
      'href="/w/history">View history</a> <button aria-expanded="false">Tools</button></div>',
  );
  out.push('<div class="hatnote">For other uses, see <a href="/wiki/Benchmark_(disambiguation)">Benchmark (disambiguation)</a>.</div>');
  // Main infobox: a table of labelled rows, an image, links inside cells.
  out.push(
    '<table class="infobox"><caption>Benchmark</caption><tbody><tr><td colspan="2"><img ' +
      'src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="220" height="160" alt="A benchmark run on a shared machine"><div>A ' +
      'benchmark run on a shared machine</div></td></tr>',
  );
  for (let r = 0; r < 30; r++)
    out.push(
      `<tr><th scope="row">${esc(`${word(r)} ${word(r + 5)}`)}</th><td><a href="/wiki/Info_${r}">${word(r + 2)} ${r}</a>` +
        `${r % 3 === 0 ? `, <a href="/wiki/Info_${r}_b">${word(r + 9)}</a>` : ''}` +
        `${r % 4 === 0 ? '<sup><a href="#cite-' + r + '">[' + (r + 1) + ']</a></sup>' : ''}</td></tr>`,
    );
  out.push('</tbody></table>');
  out.push(
    '<div id="toc" role="navigation" aria-labelledby="toc-title"><h2 id="toc-title">Contents</h2><button ' +
      'aria-expanded="true">hide</button><ol>',
  );
  for (let s = 0; s < sections; s++) out.push(`<li><a href="#s${s}">${s + 1} ${esc(`${word(s)} ${word(s + 4)}`)}</a></li>`);
  out.push('</ol></div>');
  let link = 0;
  let cite = 0;
  for (let s = 0; s < sections; s++) {
    out.push(
      `<h2 id="s${s}">${esc(`${word(s)} ${word(s + 4)}`)}<span class="edit">[<a href="/w/edit?section=${s + 1}">edit</a>]</span></h2>`,
    );
    if (s % 6 === 2) {
      // A side infobox inside a section (a "sidebar" template).
      out.push(
        `<table class="infobox side"><caption>Part of a series on ${word(s)}</caption>${Array.from(
          { length: 8 },
          (_, i) => `<tr><td><a href="/wiki/Series_${s}_${i}">${word(s + i)} series ${i}</a></td></tr>`,
        ).join('')}</table>`,
      );
    }
    for (let p = 0; p < parasPer; p++) {
      const parts: string[] = [];
      for (let l = 0; l < 10; l++) {
        const n = link++;
        parts.push(
          `${esc(`${word(n)} ${word(n + 3)} ${l % 2 ? 'of the' : 'and'} ${word(n + 7)}`)} <a href="/wiki/${word(n + 1)}_${n}" ` +
            `title="${word(n + 1)} ${n}">${word(n + 1)} ${n}</a>`,
        );
        if (l === 4 || l === 9) {
          const c = cite++;
          parts.push(`<sup class="reference"><a href="#cite-${c % 200}">[${(c % 200) + 1}]</a></sup>`);
        }
      }
      out.push(`<p>${parts.join(' ')}.</p>`);
    }
  }
  out.push('<h2 id="refs">References</h2><ol class="references">');
  for (let r = 0; r < 200; r++)
    out.push(
      `<li id="cite-${r}"><a href="#ret-${r}" aria-label="Jump up">^</a> <a class="external" ` +
        `href="https://journal${r % 17}.example.org/${r}">${esc(`${word(r)} ${word(r + 2)}: a study, vol. ${r}`)}</a>. Retrieved ` +
        `${2000 + (r % 25)}.</li>`,
    );
  out.push('</ol>');
  for (const nb of ['Computing benchmarks', 'Performance engineering']) {
    out.push(
      `<div role="navigation" class="navbox" aria-label="${nb}"><button aria-expanded="true">hide</button><table><caption>${nb}</caption>`,
    );
    for (let g = 0; g < 10; g++)
      out.push(
        `<tr><th scope="row">${word(g)} group</th><td>${Array.from(
          { length: 15 },
          (_, i) => `<a href="/wiki/${nb.replace(/ /g, '_')}_${g}_${i}">${word(g + i)} ${g}.${i}</a>`,
        ).join(' · ')}</td></tr>`,
      );
    out.push('</table></div>');
  }
  out.push(
    `<div class="catlinks"><a href="/wiki/Help:Category">Categories</a>: ` +
      `${Array.from({ length: 12 }, (_, i) => `<a href="/wiki/Category:${word(i)}">${word(i)} articles</a>`).join(' | ')}</div>`,
  );
  out.push(
    '</main></div><footer><a href="/privacy">Privacy policy</a> <a href="/about">About WikiBench</a> <a ' +
      'href="/disclaimer">Disclaimers</a></footer>',
  );
  return doc(
    'Benchmark (computing) - WikiBench',
    out.join(''),
    'body{font:14px sans-serif;margin:0}.page{display:flex}#mw-panel{width:170px;flex:none}#content{flex:1;min-width:0;padding:0 ' +
      '12px}.infobox{float:right;width:260px;margin:0 0 8px 12px;border:1px solid #aaa;font-size:12px}.navbox td a{white-space:nowrap}',
  );
}

/** How each of the news page's 12 ad frames behaves (slot order: top banner, sidebar x2, then in the feed). */
export const AD_SLOTS: readonly { kind: 'ok' | 'nested' | 'slow' | 'stall' | 'hang' | 'frozen'; delayMs?: number; note: string }[] = [
  { kind: 'frozen', note: 'top banner: loads, then blocks its renderer (a synchronous request that is never answered)' },
  { kind: 'stall', note: 'sidebar: the document never finishes loading (body never ends)' },
  { kind: 'slow', delayMs: 2500, note: 'sidebar: answers after 2.5 s' },
  { kind: 'ok', note: 'feed' },
  { kind: 'nested', note: 'feed: an ad that loads another ad frame' },
  { kind: 'slow', delayMs: 1200, note: 'feed: answers after 1.2 s' },
  { kind: 'hang', note: 'feed: request never answered (the frame stays on its initial empty document)' },
  { kind: 'ok', note: 'feed' },
  { kind: 'stall', note: 'feed: never finishes loading' },
  { kind: 'slow', delayMs: 800, note: 'feed: answers after 0.8 s' },
  { kind: 'frozen', note: 'feed: blocks its renderer after load' },
  { kind: 'ok', note: 'footer' },
];

const adBody = (n: number) =>
  `<div style="font:12px sans-serif;border:1px solid #ddd;height:230px"><b>Sponsored ` +
  `${n}</b><p>${esc(`${word(n)} deals on ${word(n + 3)}`)}</p><a href="https://ads.example.org/click/${n}" target="_blank">Learn more ` +
  `about offer ${n}</a> <button>Dismiss ad ${n}</button></div>`;

/**
 * A news front page with a dozen cross-site ad iframes (AD_SLOTS): ads on http://localhost:<port>,
 * the frozen ones on their own site http://127.0.0.2:<port> so they freeze only their own renderer.
 * The page's own 'load' event never fires (two frames never finish), as on real ad-heavy pages.
 */
export function newsPage(ads: PageServer, frozenAds: PageServer): string {
  const frame = (i: number, w = 300, h = 250) => {
    const slot = AD_SLOTS[i] as (typeof AD_SLOTS)[number];
    const server = slot.kind === 'frozen' ? frozenAds : ads;
    const p = `/ad/${i}`;
    if (slot.kind === 'ok') server.set(p, { kind: 'page', body: doc(`Ad ${i}`, adBody(i)) });
    else if (slot.kind === 'nested') {
      server.set(`${p}/inner`, { kind: 'page', body: doc(`Ad ${i} inner`, adBody(100 + i)) });
      server.set(p, {
        kind: 'page',
        body: doc(
          `Ad ${i}`,
          `${adBody(i)}<iframe src="${server.url(`${p}/inner`)}" width="280" height="120" title="Ad ${i} partner"></iframe>`,
        ),
      });
    } else if (slot.kind === 'slow') server.set(p, { kind: 'page', body: doc(`Ad ${i}`, adBody(i)), delayMs: slot.delayMs ?? 1000 });
    else if (slot.kind === 'stall')
      server.set(p, { kind: 'stall', head: `<!doctype html><html><head><title>Ad ${i}</title></head><body>${adBody(i)}<p>loading more` });
    else if (slot.kind === 'hang') server.set(p, { kind: 'hang' });
    else {
      // Blocks the frame's main thread without burning CPU: a synchronous request the server never answers.
      server.set(`${p}/beacon`, { kind: 'hang' });
      server.set(p, {
        kind: 'page',
        body: doc(
          `Ad ${i}`,
          `${adBody(i)}<script>addEventListener('load', () => setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', ` +
            `'${p}/beacon', false); try { x.send(); } catch {} }, 50));</script>`,
        ),
      });
    }
    return (
      `<div class="ad"><span class="ad-label">Advertisement</span><iframe src="${server.url(p)}" width="${w}" height="${h}" ` +
      `title="Advertisement ${i + 1}" scrolling="no"></iframe></div>`
    );
  };
  const out: string[] = [];
  out.push(
    '<header><a href="/" class="brand">The Daily Bench</a><nav aria-label="Sections">' +
      ['World', 'Politics', 'Business', 'Tech', 'Science', 'Health', 'Sport', 'Culture', 'Opinion', 'Travel', 'Food', 'Weather']
        .map((s) => `<a href="/section/${s.toLowerCase()}">${s}</a>`)
        .join(' ') +
      '</nav><form role="search"><input type="search" aria-label="Search news" placeholder="Search"><button>Go</button></form>' +
      '<button>Sign in</button><button>Subscribe</button></header>',
  );
  out.push(`<div class="banner">${frame(0, 728, 90)}</div><div class="layout"><main>`);
  let ad = 3;
  for (let a = 0; a < 60; a++) {
    out.push(
      `<article><h3><a href="/story/${a}">` +
        esc(`${word(a)} ${word(a + 5)} ${word(a + 9)}: what the ${word(a + 2)} means for ${word(a + 13)}`) +
        `</a></h3><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="120" height="80" alt="Photo for story ${a}"><p>` +
        esc(
          `${word(a + 1)} ${word(a + 4)} reported on ${word(a + 6)} as ${word(a + 8)} ${word(a + 10)} continued; ` +
            `analysts expect ${word(a + 12)}.`,
        ) +
        `</p><a class="tag" href="/topic/${word(a)}">${word(a)}</a> <button aria-label="Save story ${a}">☆</button> ` +
        `<a href="/story/${a}#comments">${a * 7} comments</a></article>`,
    );
    if (a % 7 === 3 && ad < 11) out.push(frame(ad++));
  }
  while (ad < 11) out.push(frame(ad++));
  out.push(
    `</main><aside>${frame(1)}${frame(2)}<h2>Most read</h2><ol>${Array.from(
      { length: 10 },
      (_, i) => `<li><a href="/story/${i * 3}">${esc(`${word(i)} ${word(i + 2)}`)}</a></li>`,
    ).join('')}</ol></aside></div>`,
  );
  out.push(
    `<footer>` +
      `${frame(11, 728, 90)}${Array.from({ length: 30 }, (_, i) => `<a href="/footer/${i}">${word(i)} ${i}</a>`).join(' ')}</footer>`,
  );
  return doc(
    'The Daily Bench',
    out.join(''),
    'body{font:14px sans-serif;margin:0}.layout{display:flex}main{flex:1}aside{width:320px}article{border-bottom:1px solid ' +
      '#eee;padding:6px}.ad{margin:8px 0}.ad iframe{border:0;display:block}',
  );
}

/**
 * TodoMVC (rendered by its script, with working add/toggle/destroy) inside a site shell with
 * thousands of hidden menu nodes: 30 mega-menus of 125 links each, closed (display:none, the hidden
 * attribute or visibility:hidden), and an off-canvas drawer of 40 links (rendered, off screen).
 */
export function todoHiddenMenusPage(menus = 30, linksPerMenu = 125, todos = 30): string {
  const out: string[] = ['<header class="site"><a href="/" class="brand">AppSuite</a><nav aria-label="Main"><ul class="menubar">'];
  for (let m = 0; m < menus; m++) {
    const hide = m % 3 === 0 ? 'hidden' : m % 3 === 1 ? 'class="mega closed"' : 'class="mega invisible"';
    out.push(
      `<li><button aria-haspopup="true" aria-expanded="false" aria-controls="mega${m}">${esc(`${word(m)} menu`)}</button><div ` +
        `id="mega${m}" ${hide}>`,
    );
    for (let c = 0; c < 5; c++) {
      out.push(`<div class="col"><h4>${word(m + c)} ${c}</h4><ul>`);
      for (let l = 0; l < linksPerMenu / 5; l++)
        out.push(
          `<li><a href="/m/${m}/${c}/${l}"><span class="icon"></span><span>${esc(`${word(m + l)} ${word(c + l)} ${l}`)}</span></a></li>`,
        );
      out.push('</ul></div>');
    }
    out.push('</div></li>');
  }
  out.push('</ul></nav><button aria-controls="drawer" aria-expanded="false">Menu</button></header>');
  out.push(
    `<nav id="drawer" ` +
      `aria-label="Drawer">${Array.from({ length: 40 }, (_, i) => `<a href="/drawer/${i}">${word(i)} drawer ${i}</a>`).join('')}</nav>`,
  );
  out.push(
    '<section class="todoapp"><header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" ' +
      'autofocus></header><section class="main"><input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark ' +
      'all as complete</label><ul class="todo-list"></ul></section><footer class="footer"><span class="todo-count"></span><ul ' +
      'class="filters"><li><a href="#/" class="selected">All</a></li><li><a href="#/active">Active</a></li><li><a ' +
      'href="#/completed">Completed</a></li></ul><button class="clear-completed">Clear completed</button></footer></section>',
  );
  out.push('<footer class="info"><p>Double-click to edit a todo</p><p>Part of <a href="http://todomvc.com">TodoMVC</a></p></footer>');
  const items = Array.from({ length: todos }, (_, i) => ({ title: `${word(i)} ${word(i + 3)} task ${i + 1}`, completed: i % 4 === 0 }));
  out.push(
    `<script>
const todos = ${JSON.stringify(items)};
const list = document.querySelector('.todo-list');
function render() {
  list.textContent = '';
  todos.forEach((t, i) => {
    const li = document.createElement('li'); if (t.completed) li.className = 'completed';
    const view = document.createElement('div'); view.className = 'view';
    const cb = document.createElement('input'); cb.className = 'toggle'; cb.type = 'checkbox'; cb.checked = t.completed;
    cb.addEventListener('change', () => { t.completed = cb.checked; render(); });
    const label = document.createElement('label'); label.textContent = t.title;
    const del = document.createElement('button'); del.className = 'destroy'; del.setAttribute('aria-label', 'Delete ' + t.title);
    del.addEventListener('click', () => { todos.splice(i, 1); render(); });
    view.append(cb, label, del); li.append(view); list.append(li);
  });
  const left = todos.filter((t) => !t.completed).length;
  document.querySelector('.todo-count').textContent = left + (left === 1 ? ' item' : ' items') + ' left';
}
document.querySelector('.new-todo').addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target.value.trim()) { ` +
      `todos.push({ title: e.target.value.trim(), completed: false }); e.target.value = ''; render(); } });
render();
</script>`,
  );
  return doc(
    'AppSuite • TodoMVC',
    out.join(''),
    '.menubar{display:flex;flex-wrap:wrap;list-style:none;' +
      'padding:0}.mega{position:absolute}.closed{display:none}.invisible{visibility:hidden}#drawer{position:fixed;top:0;left:-420px;' +
      'width:400px}.todoapp{max-width:550px;margin:40px auto}.todo-list li{list-style:none}.completed label{text-decoration:line-through}',
  );
}

/** The servers the pages live on: the page's own site and two ad sites (see page-server.ts). */
export interface BenchSites {
  main: PageServer;
  ads: PageServer;
  frozenAds: PageServer;
  close(): Promise<void>;
}

export async function startBenchSites(): Promise<BenchSites> {
  const [main, ads, frozenAds] = await Promise.all([
    new PageServer('127.0.0.1').start(),
    new PageServer('localhost').start(),
    new PageServer('127.0.0.2').start(),
  ]);
  return { main, ads, frozenAds, close: async () => void (await Promise.all([main.close(), ads.close(), frozenAds.close()])) };
}

export interface BenchPage {
  key: string;
  title: string;
  /** Builds the page (and its sub-resources) on the sites; returns the HTML of the top document. */
  html(sites: BenchSites): string;
  /**
   * When the page counts as loaded: its 'load' event, or (pages whose load never fires) DOMContentLoaded
   * plus a fixed wait that lets the slow frames arrive.
   */
  ready: { until: 'load' } | { until: 'domcontentloaded'; waitMs: number };
  /** Whether the page has frames that never answer (the bench reports the frame budget for it). */
  badFrames?: boolean;
}

export const BENCH_PAGES: BenchPage[] = [
  {
    key: 'wiki-article',
    title: 'Wikipedia-like article: 3,000 inline links, infoboxes, navboxes',
    html: () => wikiPage(),
    ready: { until: 'load' },
  },
  {
    key: 'news-ads',
    title: 'News page, 12 cross-site ad iframes (3 slow, 2 never finish, 2 frozen, 1 never answered)',
    html: (s) => newsPage(s.ads, s.frozenAds),
    ready: { until: 'domcontentloaded', waitMs: 3000 },
    badFrames: true,
  },
  {
    key: 'news-saved',
    title: 'Saved news article, every external request blocked; 8 cross-origin ad slots (20 frames: nested safeframes, late DOM)',
    html: (s) => savedNewsPage(s.ads),
    // The ads and the page add DOM until about 1.7 s after load.
    ready: { until: 'domcontentloaded', waitMs: 2500 },
  },
  {
    key: 'wc-todo',
    title: 'TodoMVC as web components above 1,200 product-card hosts (shadow roots, nested hosts, slots), nearly all off screen',
    html: () => wcTodoPage(),
    ready: { until: 'load' },
  },
  {
    key: 'todo-hidden-menus',
    title: 'TodoMVC inside 3,750 hidden menu links (30 closed mega-menus) + off-canvas drawer',
    html: () => todoHiddenMenusPage(),
    ready: { until: 'load' },
  },
  { key: 'table-10k', title: '10,000-row table, two links per row', html: () => doc('Orders', tablePage()), ready: { until: 'load' } },
  {
    key: 'article-3k-links',
    title: 'Plain long article, 3,000 links (the first bench page)',
    html: () => doc('Article', articlePage()),
    ready: { until: 'load' },
  },
  { key: 'form-heavy', title: 'Form-heavy page (400 controls)', html: () => doc('Form', formPage()), ready: { until: 'load' } },
  { key: 'shadow-app', title: 'Shadow-DOM app (300 cards)', html: () => doc('Shadow app', shadowPage()), ready: { until: 'load' } },
];

/** Registers every page on the sites; returns key -> URL. */
export function serveBenchPages(sites: BenchSites, pages: BenchPage[] = BENCH_PAGES): Map<string, string> {
  return new Map(pages.map((p) => [p.key, sites.main.set(`/bench/${p.key}`, { kind: 'page', body: p.html(sites) })]));
}
