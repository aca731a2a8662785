// TodoMVC written as web components (hand-written in lit's style: one shared constructed stylesheet
// per component class, adopted by every shadow root; open shadow roots; content slotted from the
// light DOM) inside a big web-components page: a shop shell with a catalogue of product cards
// below the fold. Each card is a custom element with a shadow root holding an image, a slotted
// title, a nested <star-rating> host (its own shadow root), a price, a badge positioned inside the
// card, and two buttons. Thousands of hosts with shadow roots, nearly all of them off screen: the
// shape where a viewport state must not pay for what it does not show.

/** The page: TodoMVC (20 todos) at the top, then `cards` product cards in a grid below it. */
export function wcTodoPage(cards = 1200, todos = 20): string {
  const items = Array.from({ length: todos }, (_, i) => ({
    title: `${['buy', 'call', 'fix', 'write', 'plan'][i % 5]} ${['milk', 'bank', 'bike', 'report', 'trip'][(i * 3) % 5]} ${i + 1}`,
    completed: i % 4 === 0,
  }));
  const light = Array.from(
    { length: cards },
    (_, i) =>
      `<product-card sku="${i}" price="${(i * 7) % 90}.99" rating="${i % 5}"${i % 9 === 0 ? ' sale' : ''}>` +
      `<span slot="title">Product ${i} ${['lamp', 'chair', 'desk', 'rug', 'shelf', 'vase'][i % 6]}</span>` +
      `<a slot="more" href="/p/${i}">Details ${i}</a></product-card>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop • TodoMVC (web components)</title>
<style>body{margin:0;font:14px sans-serif}shop-header{display:block}.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:8px;
padding:8px}todo-app{display:block;max-width:550px;margin:20px auto}</style></head><body>
<shop-header><a slot="brand" href="/">ShopBench</a></shop-header>
<todo-app></todo-app>
<h2>Catalogue</h2><section class="grid" aria-label="Catalogue">${light}</section>
<shop-footer></shop-footer>
<script>
// lit-style: one constructed stylesheet per component, adopted by every instance.
const sheet = (css) => { const s = new CSSStyleSheet(); s.replaceSync(css); return s; };
class Base extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [this.constructor.styles]; }
}
customElements.define('shop-header', class extends Base {
  static styles = sheet(':host{display:flex;gap:12px;padding:8px;border-bottom:1px solid #ddd} nav a{margin-right:8px}');
  connectedCallback() {
    this.shadowRoot.innerHTML = '<slot name="brand"></slot><nav aria-label="Departments">' +
      ['Living', 'Bedroom', 'Office', 'Garden', 'Kitchen', 'Sale'].map((d) => '<a href="/d/' + d + '">' + d + '</a>').join('') +
      '</nav><input type="search" aria-label="Search products"><button aria-label="Cart">Cart (0)</button>';
  }
});
customElements.define('star-rating', class extends Base {
  static styles = sheet(':host{display:inline-flex} span{color:#c90}');
  connectedCallback() {
    const n = Number(this.getAttribute('value'));
    this.shadowRoot.innerHTML = '<span role="img" aria-label="' + n + ' of 5 stars">' +
      Array.from({ length: 5 }, (_, i) => '<span>' + (i < n ? '★' : '☆') + '</span>').join('') + '</span>';
  }
});
customElements.define('product-card', class extends Base {
  static styles = sheet(':host{display:block;position:relative;border:1px solid #ddd;padding:8px;height:230px;overflow:hidden}' +
    '.badge{position:absolute;top:4px;right:4px;background:#c00;color:#fff;padding:2px 4px}img{display:block;width:100%;height:90px}' +
    'h3{margin:4px 0;font-size:14px}');
  connectedCallback() {
    const sku = this.getAttribute('sku');
    this.shadowRoot.innerHTML = (this.hasAttribute('sale') ? '<span class="badge">Sale</span>' : '') +
      '<img alt="Photo of product ' + sku + '" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><h3><slot name="title"></slot></h3>' +
      '<star-rating value="' + this.getAttribute('rating') + '"></star-rating><p class="price">$' + this.getAttribute('price') +
      '</p><button>Add to cart</button> <button aria-label="Save product ' + sku + '">♡</button> <slot name="more"></slot>';
  }
});
customElements.define('shop-footer', class extends Base {
  static styles = sheet(':host{display:block;padding:8px;border-top:1px solid #ddd}');
  connectedCallback() {
    this.shadowRoot.innerHTML = Array.from({ length: 40 }, (_, i) => '<a href="/help/' + i + '">Help ' + i + '</a> ').join('');
  }
});
// TodoMVC (todomvc.com app spec) as components: todo-app > (new-todo input, todo-item x N, todo-footer).
const todos = ${JSON.stringify(items)};
let filter = 'all';
customElements.define('todo-item', class extends Base {
  static styles = sheet(':host{display:block;border-bottom:1px solid #eee;position:relative} li{list-style:none;padding:12px 12px 12px 44px}' +
    '.toggle{position:absolute;top:0;bottom:0;left:8px;margin:auto 0}.destroy{position:absolute;top:0;right:10px;bottom:0;margin:auto 0}' +
    ':host([completed]) label{text-decoration:line-through;color:#999}');
  render(t) {
    this.toggleAttribute('completed', t.completed);
    this.shadowRoot.innerHTML = '<li><input class="toggle" type="checkbox"' + (t.completed ? ' checked' : '') + ' aria-label="Toggle ' +
      t.title + '"><label></label><button class="destroy" aria-label="Delete ' + t.title + '">×</button></li>';
    this.shadowRoot.querySelector('label').textContent = t.title;
    this.shadowRoot.querySelector('.toggle').addEventListener('change', (e) => { t.completed = e.target.checked; app.update(); });
    this.shadowRoot.querySelector('.destroy').addEventListener('click', () => { todos.splice(todos.indexOf(t), 1); app.update(); });
  }
});
customElements.define('todo-footer', class extends Base {
  static styles = sheet(':host{display:flex;justify-content:space-between;padding:8px 12px;color:#777} a{margin:0 4px}' +
    'a.selected{border:1px solid #ccc}');
  render(left, done) {
    this.shadowRoot.innerHTML = '<span class="todo-count"><strong>' + left + '</strong> ' + (left === 1 ? 'item' : 'items') + ' left</span>' +
      '<span class="filters">' + ['all', 'active', 'completed'].map((f) => '<a href="#/' + (f === 'all' ? '' : f) + '" class="' +
      (f === filter ? 'selected' : '') + '">' + f[0].toUpperCase() + f.slice(1) + '</a>').join('') + '</span>' +
      (done ? '<button class="clear-completed">Clear completed</button>' : '');
    this.shadowRoot.querySelector('.clear-completed')?.addEventListener('click', () => {
      for (let i = todos.length - 1; i >= 0; i--) if (todos[i].completed) todos.splice(i, 1);
      app.update();
    });
  }
});
customElements.define('todo-app', class extends Base {
  static styles = sheet(':host{display:block;background:#fff;box-shadow:0 2px 4px #0003} h1{text-align:center;font-weight:200;color:#b83f45}' +
    '.new-todo{width:100%;box-sizing:border-box;padding:12px 12px 12px 44px;font-size:20px} .main{position:relative}' +
    '.toggle-all{position:absolute;top:-42px;left:8px}');
  connectedCallback() {
    this.shadowRoot.innerHTML = '<header><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus>' +
      '</header><section class="main"><input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as ' +
      'complete</label><div class="todo-list" role="list"></div></section><todo-footer></todo-footer>';
    this.shadowRoot.querySelector('.new-todo').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target.value.trim()) { todos.push({ title: e.target.value.trim(), completed: false }); e.target.value = ''; this.update(); }
    });
    this.shadowRoot.querySelector('.toggle-all').addEventListener('change', (e) => { for (const t of todos) t.completed = e.target.checked; this.update(); });
    addEventListener('hashchange', () => { filter = location.hash.replace('#/', '') || 'all'; this.update(); });
    this.update();
  }
  update() {
    const list = this.shadowRoot.querySelector('.todo-list');
    list.textContent = '';
    for (const t of todos) {
      if ((filter === 'active' && t.completed) || (filter === 'completed' && !t.completed)) continue;
      const el = document.createElement('todo-item'); el.setAttribute('role', 'listitem'); list.append(el); el.render(t);
    }
    const left = todos.filter((t) => !t.completed).length;
    this.shadowRoot.querySelector('todo-footer').render(left, todos.length - left);
  }
});
const app = document.querySelector('todo-app');
</script></body></html>`;
}
