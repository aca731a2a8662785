// The conformance page: one element per check, served on 127.0.0.1 by the kit itself so the
// browser under test loads it like any site.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const CONFORMANCE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Conformance</title></head><body>
<h1>Counter</h1>
<p id="count">0</p>
<button id="inc" onclick="document.getElementById('count').textContent = String(++window.n)">Add one</button>
<button id="dbl" ondblclick="this.textContent='double'">Twice</button>
<button>Twin</button><button>Twin</button>
<button id="off" disabled>Off</button>
<label>Name <input id="name" value="Ada"></label>
<label><input type="checkbox" id="agree"> I agree</label>
<select id="size" aria-label="Size"><option value="s">Small</option><option value="l">Large</option></select>
<label>Attachment <input type="file" id="attachment"></label>
<div id="drag" draggable="true" style="width:40px;height:20px;background:#ccc">drag</div>
<div id="drop" style="width:80px;height:40px;border:1px solid" ondragover="event.preventDefault()" ondrop="this.textContent='dropped'">drop</div>
<a href="/page2">Next page</a>
<div style="height:2500px"></div>
<p id="far">Far text</p>
<script>window.n = 0</script>
</body></html>`;

export class ConformancePageServer {
  private server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0];
    if (p === '/' || p === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(CONFORMANCE_PAGE);
      return;
    }
    if (p === '/page2') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Page 2</title><h1>Page 2</h1><a href="/">Back</a>');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
