// A news article page as "Save page as" leaves it, opened with the network off: a long article (nav,
// breadcrumbs, 80 paragraphs of linked text, figures, a related-stories rail, comments, a big
// footer) whose stylesheets, scripts, images and trackers all point at external hosts, plus eight
// cross-origin ad slots served from a second loopback origin. Each ad is what ad stacks deliver: a
// slot frame holding a "safeframe" that holds the creative (nested iframes, two or three
// documents per slot), deep wrapper divs, click-through links, an AdChoices badge, 1x1 trackers,
// external scripts, and a script that adds more DOM late (a carousel, a "you may like" strip).
//
// Every external request is blocked: external URLs use port 1, which Chromium refuses before any
// DNS lookup or connection (net::ERR_UNSAFE_PORT), so the bench stays offline and each request
// fails at once, as on a saved page opened without network.
import type { PageServer } from './page-server';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const WORDS =
  'market council budget storm transit housing museum harbour election vaccine stadium festival court bridge climate school'.split(' ');
const w = (i: number) => WORDS[i % WORDS.length] as string;
/** An external URL that is blocked (port 1: Chromium refuses it before DNS). */
const ext = (host: string, p: string) => `https://${host}:1${p}`;

const doc = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>${head}</head><body>${body}</body></html>`;

/** The creative (innermost document of a slot): an image ad with a headline, a call to action and late-added products. */
function creative(slot: number, late: boolean): string {
  const items = (n: number, from: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<div class="p"><a href="${ext('adclick.g.doubleclick.example', `/pcs/click?slot=${slot}&item=${from + i}`)}" target="_blank">` +
        `<img src="${ext('tpc.googlesyndication.example', `/simgad/${slot}${from + i}`)}" width="60" height="60" alt="">` +
        `<span>${esc(`${w(from + i)} offer ${from + i}`)}</span></a><span class="price">$${(from + i) * 3 + 9}.99</span></div>`,
    ).join('');
  return doc(
    `creative ${slot}`,
    `<style>body{margin:0;font:11px sans-serif}.p{display:inline-block;width:90px;vertical-align:top}` +
      `#adchoices{position:absolute;top:0;right:0}</style>` +
      `<script src="${ext('tpc.googlesyndication.example', '/safeframe/1-0-40/js/ext.js')}"></script>`,
    `<div id="google_ads_iframe_${slot}__container__"><div><div><div class="GoogleActiveViewElement">` +
      `<a id="aw0" href="${ext('adclick.g.doubleclick.example', `/aclk?sa=L&slot=${slot}`)}" target="_blank">` +
      `<img src="${ext('tpc.googlesyndication.example', `/simgad/${slot}`)}" width="300" height="100" alt="${esc(`${w(slot)} sale`)}">` +
      `</a><div class="headline">${esc(`Huge ${w(slot)} sale, ${w(slot + 3)} deals today`)}</div>` +
      `<a class="cta" href="${ext('adclick.g.doubleclick.example', `/aclk?sa=L&cta=${slot}`)}">Shop now</a>` +
      `<div id="adchoices"><a href="${ext('adssettings.example', '/whythisad')}" title="AdChoices">` +
      `<img src="${ext('tpc.googlesyndication.example', '/pagead/images/adchoices/icon.png')}" width="15" height="15" alt="AdChoices">` +
      `</a><button aria-label="Close ad ${slot}">x</button></div>` +
      `<div class="strip">${items(4, 0)}</div></div></div></div></div>` +
      `<img src="${ext('securepubads.g.doubleclick.example', `/pcs/view?slot=${slot}`)}" width="1" height="1" alt="" style="position:absolute">` +
      `<img src="${ext('pagead2.googlesyndication.example', `/pagead/adview?slot=${slot}`)}" width="1" height="1" alt="">` +
      (late
        ? // Ad scripts keep adding DOM after load (carousels, "you may like" strips, viewability pings).
          `<script>setTimeout(() => { const s = document.querySelector('.strip'); s.insertAdjacentHTML('beforeend', ` +
          `${JSON.stringify(items(6, 4))}); }, ${300 + slot * 120});` +
          `setTimeout(() => { const d = document.createElement('div'); d.className = 'more'; d.innerHTML = ` +
          `${JSON.stringify(`<h4>You may like</h4>${items(4, 10)}`)}; document.body.append(d); }, ${900 + slot * 100});</script>`
        : ''),
  );
}

/**
 * Registers slot `slot`'s documents on the ad server and returns the slot frame's URL: the slot
 * frame holds a safeframe (and, for odd slots, the safeframe holds one more creative frame).
 */
function adSlot(ads: PageServer, slot: number): string {
  const base = `/saved-ad/${slot}`;
  const inner = ads.set(`${base}/creative`, { kind: 'page', body: creative(slot, true) });
  const safe =
    slot % 2
      ? ads.set(`${base}/safeframe`, {
          kind: 'page',
          body: doc(
            `safeframe ${slot}`,
            `<script src="${ext('tpc.googlesyndication.example', '/sodar/sodar2.js')}"></script>`,
            `<div class="sf"><iframe src="${inner}" width="300" height="230" frameborder="0" scrolling="no" title="creative ${slot}">` +
              `</iframe></div>`,
          ),
        })
      : inner;
  return ads.set(base, {
    kind: 'page',
    body: doc(
      `ad slot ${slot}`,
      `<script src="${ext('securepubads.g.doubleclick.example', '/tag/js/gpt.js')}"></script>` +
        `<script src="${ext('www.googletagservices.example', '/activeview/js/current/osd.js')}"></script>`,
      `<div id="div-gpt-ad-${slot}" style="font:11px sans-serif"><span class="label">Advertisement</span>` +
        `<iframe src="${safe}" width="300" height="${slot % 2 ? 240 : 230}" frameborder="0" scrolling="no" ` +
        `title="3rd party ad content"></iframe><img src="${ext('www.google-analytics.example', `/collect?slot=${slot}`)}" width="1" ` +
        `height="1" alt=""></div>`,
    ),
  });
}

/** The saved news article (top document on the main site; ads on `ads`, a second loopback origin). */
export function savedNewsPage(ads: PageServer, paragraphs = 80): string {
  const slots = Array.from({ length: 8 }, (_, i) => adSlot(ads, i));
  const ad = (i: number, cls = 'ad') =>
    `<div class="${cls}" data-google-query-id="q${i}"><iframe src="${slots[i]}" width="310" height="${i % 2 ? 250 : 240}" ` +
    `frameborder="0" scrolling="no" title="Advertisement" aria-label="Advertisement"></iframe></div>`;
  const out: string[] = [];
  // Site header: a mega navigation (8 sections x 18 links), account links, search.
  out.push(
    `<a class="skip" href="#main">Skip to content</a><header class="masthead"><a href="https://www.newsbench.example/" ` +
      `class="logo"><img src="${ext('static.newsbench.example', '/logo.svg')}" width="180" height="40" alt="The Evening Bench"></a>` +
      `<form role="search" action="https://www.newsbench.example/search"><input type="search" name="q" aria-label="Search"></form>` +
      `<a href="https://www.newsbench.example/subscribe">Subscribe</a> <a href="https://www.newsbench.example/login">Log in</a>` +
      `<nav aria-label="Sections"><ul class="mega">`,
  );
  for (let s = 0; s < 8; s++)
    out.push(
      `<li><a href="https://www.newsbench.example/${w(s)}">${w(s)}</a><ul class="sub">${Array.from(
        { length: 18 },
        (_, i) => `<li><a href="https://www.newsbench.example/${w(s)}/${w(s + i)}-${i}">${esc(`${w(s + i)} ${i}`)}</a></li>`,
      ).join('')}</ul></li>`,
    );
  out.push('</ul></nav></header>');
  out.push(`<div class="leaderboard">${ad(0)}</div>`);
  out.push(
    `<div class="layout"><main id="main"><nav aria-label="Breadcrumb"><ol><li><a href="https://www.newsbench.example/">Home</a></li>` +
      `<li><a href="https://www.newsbench.example/city">City</a></li><li>Budget</li></ol></nav><article><h1>${esc(
        'Council approves harbour budget after a night of debate over transit, housing and the new museum',
      )}</h1><p class="byline">By <a href="https://www.newsbench.example/by/a-writer">A. Writer</a>, ` +
      `<time datetime="2026-11-20">20 November 2026</time></p><div class="share">${['Facebook', 'X', 'Email', 'Copy link']
        .map((s) => `<a href="${ext('share.example', `/${s}`)}" aria-label="Share on ${s}">${s}</a>`)
        .join(' ')}</div>`,
  );
  let adNext = 1;
  for (let p = 0; p < paragraphs; p++) {
    if (p % 10 === 0 && p)
      out.push(
        `<figure><img src="${ext('images.newsbench.example', `/2026/11/photo-${p}.jpg`)}" srcset="${ext(
          'images.newsbench.example',
          `/2026/11/photo-${p}@2x.jpg`,
        )} 2x" width="640" height="360" alt="${esc(`${w(p)} ${w(p + 2)} at the council meeting`)}" loading="lazy">` +
          `<figcaption>${esc(`The ${w(p)} debate ran late.`)} <a href="https://www.newsbench.example/photos/${p}">More photos</a>` +
          `</figcaption></figure>`,
      );
    if (p % 8 === 4) out.push(`<h2>${esc(`${w(p)} and ${w(p + 5)}`)}</h2>`);
    const links = Array.from(
      { length: 7 },
      (_, l) =>
        `${esc(`${w(p + l)} ${w(p + l + 3)} officials said the ${w(p + l + 6)}`)} <a href="https://www.newsbench.example/topic/${w(
          p + l,
        )}-${p}-${l}">${esc(`${w(p + l + 1)} plan`)}</a>`,
    ).join(', ');
    out.push(`<p>${links}.</p>`);
    if (p % 12 === 6 && adNext < 6) out.push(ad(adNext++, 'ad inline'));
  }
  out.push(
    `<section class="tags">${Array.from({ length: 12 }, (_, i) => `<a href="https://www.newsbench.example/tag/${w(i)}">${w(i)}</a>`).join(
      ' ',
    )}</section></article>`,
  );
  // Comments: a list that the page's own script fills in late (lazy-loaded discussion).
  out.push('<section id="comments" aria-label="Comments"><h2>Comments</h2><ol class="comments"></ol></section></main>');
  // Sidebar: two ads (one sticky, as news sites do) and a related-stories rail of 40 stories.
  out.push(`<aside>${ad(6, 'ad side')}<h2>Most read</h2><ol class="related">`);
  for (let r = 0; r < 40; r++)
    out.push(
      `<li><a href="https://www.newsbench.example/story/${r}"><img src="${ext('images.newsbench.example', `/thumb/${r}.jpg`)}" ` +
        `width="80" height="54" alt=""><span>${esc(`${w(r)} ${w(r + 4)}: what the ${w(r + 7)} means`)}</span></a></li>`,
    );
  out.push(`</ol><div class="sticky">${ad(7, 'ad side')}</div></aside></div>`);
  out.push('<footer class="site-footer">');
  for (let c = 0; c < 6; c++)
    out.push(
      `<nav aria-label="${esc(`Footer ${w(c)}`)}"><h3>${w(c)}</h3><ul>${Array.from(
        { length: 25 },
        (_, i) => `<li><a href="https://www.newsbench.example/f/${c}/${i}">${esc(`${w(c + i)} ${i}`)}</a></li>`,
      ).join('')}</ul></nav>`,
    );
  out.push('<p>© 2026 The Evening Bench</p></footer>');
  const comments = Array.from(
    { length: 30 },
    (_, i) =>
      `<li><b>${esc(`reader_${w(i)}${i}`)}</b> <p>${esc(`I think the ${w(i)} plan ignores ${w(i + 5)}.`)}</p><button>Reply</button> ` +
      `<button aria-label="Like comment ${i}">Like</button></li>`,
  ).join('');
  out.push(
    // The page's own late DOM: comments load after 600 ms, a consent banner after 300 ms.
    `<script>setTimeout(() => { document.querySelector('.comments').innerHTML = ${JSON.stringify(comments)}; }, 600);` +
      `setTimeout(() => { const b = document.createElement('div'); b.className = 'consent'; b.innerHTML = ` +
      `${JSON.stringify('<p>We use cookies.</p><button>Accept all</button> <button>Manage choices</button>')}; ` +
      `document.body.append(b); }, 300);</script>`,
  );
  const head =
    `<link rel="stylesheet" href="${ext('static.newsbench.example', '/css/site.3f9a.css')}">` +
    `<link rel="preconnect" href="${ext('securepubads.g.doubleclick.example', '')}">` +
    `<script async src="${ext('securepubads.g.doubleclick.example', '/tag/js/gpt.js')}"></script>` +
    `<script async src="${ext('www.googletagmanager.example', '/gtm.js?id=GTM-BENCH')}"></script>` +
    `<style>body{font:15px Georgia,serif;margin:0}.mega{display:flex;flex-wrap:wrap;list-style:none;padding:0}.mega>li{margin-right:12px}` +
    `.sub{display:none}.layout{display:flex;max-width:1100px;margin:auto}main{flex:1;min-width:0}aside{width:320px;flex:none}` +
    `.sticky{position:sticky;top:0}.related li{list-style:none}.ad iframe{border:0;display:block}` +
    `.consent{position:fixed;bottom:0;left:0;right:0;background:#fff;border-top:1px solid #ccc}` +
    `.site-footer{display:flex;flex-wrap:wrap}</style>`;
  return doc('Council approves harbour budget - The Evening Bench', head, out.join(''));
}
