// Generated benchmark pages (issue 3 "Benchmark"): deterministic HTML, no network.
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ');
const word = (i: number) => WORDS[i % WORDS.length] as string;

/** A 10,000-row table with a link and a button per row. */
export function tablePage(rows = 10_000): string {
  const out: string[] = ['<h1>Orders</h1><table><thead><tr><th>#</th><th>Customer</th><th>Order</th><th>Action</th></tr></thead><tbody>'];
  for (let i = 1; i <= rows; i++) out.push(`<tr><td>${i}</td><td>Customer ${word(i)} ${i}</td><td><a href="/order/${i}">Order ${i}</a></td><td><button>Cancel ${i}</button></td></tr>`);
  out.push('</tbody></table>');
  return out.join('');
}

/** A long article with about 3,000 links in running text. */
export function articlePage(paragraphs = 600, linksPer = 5): string {
  const out: string[] = ['<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav></header><article><h1>A very long article</h1>'];
  for (let p = 0; p < paragraphs; p++) {
    if (p % 25 === 0) out.push(`<h2>Section ${p / 25 + 1}</h2>`);
    const parts: string[] = [];
    for (let l = 0; l < linksPer; l++) {
      const n = p * linksPer + l;
      parts.push(`${esc(`${word(n)} ${word(n + 3)} ${word(n + 7)} and ${word(n + 11)} were discussed at length`)} <a href="/wiki/${n}">topic ${n}</a>`);
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
    out.push(`<label for="c${g}">Country ${g}</label><select id="c${g}" name="country${g}"><option>France</option><option>Germany</option><option>Japan</option><option>Peru</option><option>Kenya</option></select>`);
    out.push(`<div role="radiogroup" aria-label="Plan ${g}">${['Basic', 'Pro', 'Team'].map((p) => `<label><input type="radio" name="plan${g}" value="${p}"> ${p}</label>`).join('')}</div>`);
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

export const PAGES: { key: string; title: string; html: () => string }[] = [
  { key: 'table-10k', title: '10,000-row table (link + button per row)', html: () => tablePage() },
  { key: 'article-3k-links', title: 'Long article, 3,000 links', html: () => articlePage() },
  { key: 'form-heavy', title: 'Form-heavy page (400 controls)', html: () => formPage() },
  { key: 'shadow-app', title: 'Shadow-DOM app (300 cards)', html: () => shadowPage() },
];
