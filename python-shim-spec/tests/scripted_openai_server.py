"""A scripted OpenAI-compatible chat server (stdlib only), standing in for a paid model in the tests
where `python -m browser_use_ext serve` runs browser_use's real Agent with ChatOpenAI(base_url=...).

It answers like a model would, deciding every step from the prompt text browser_use built:
  - a request without tools (serve's start-up check, browser_use's "capital of France") -> "Paris";
  - otherwise one AgentOutput tool call that shops on the fixture shop (tests/fixtures/shop): open
    the shop, search "stapler", add the cheapest stapler to the cart (the most expensive one after
    the person redirected the agent: browser_use's add_new_task text), open the cart, done.
Test controls (JSON over HTTP):
  POST /control {"hold_on": "results.html"}  hold the next request whose page URL contains that, until
  POST /release                             answer the held request with a harmless scroll step.
  GET  /log                                 the decisions so far: [{"url", "goal", "redirected"}].

    python scripted_openai_server.py        prints {"base_url": "http://127.0.0.1:<port>/v1"} and serves
"""
from __future__ import annotations

import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

STATE: dict[str, Any] = {'hold_on': None, 'released': threading.Event(), 'log': [], 'calls': 0}
LOCK = threading.Lock()


def text_of(message: dict) -> str:
    content = message.get('content')
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return '\n'.join(p.get('text', '') for p in content if isinstance(p, dict) and p.get('type') == 'text')
    return ''


def decide(messages: list[dict]) -> tuple[str, list[dict], str, bool]:
    """(goal, actions, url, redirected) from the conversation browser_use sent."""
    texts = [text_of(m) for m in messages]
    state = next((t for t in reversed(texts) if 'Current url:' in t), '')
    url_m = re.search(r'Current url: (\S+)', state)
    url = url_m.group(1) if url_m else ''
    redirected = any('Your new ultimate task is' in t and 'most expensive' in t.lower() for t in texts)
    base = re.sub(r'/shop/.*$', '/shop/', url) if '/shop/' in url else None
    if base is None:
        shop = next((re.search(r'(https?://[^\s"\']+/shop/)', t) for t in texts if re.search(r'https?://[^\s"\']+/shop/', t)), None)
        target = shop.group(1) + 'index.html' if shop else 'http://127.0.0.1/shop/index.html'
        return 'Open the shop', [{'go_to_url': {'url': target}}], url, redirected
    if url.split('?')[0].endswith('index.html'):
        box = re.search(r"\[(\d+)\]<input[^>]*name='q'", state)
        button = re.search(r"\[(\d+)\]<button type='submit'>Search", state)
        if not box or not button:
            return 'Find the search box', [{'scroll_down': {'amount': 200}}], url, redirected
        return 'Search for staplers', [{'input_text': {'index': int(box.group(1)), 'text': 'stapler'}}, {'click_element_by_index': {'index': int(button.group(1))}}], url, redirected
    if '/results.html' in url and 'added to your cart' not in state:
        offers = []
        lines = state.splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"\[(\d+)\]<button[^>]*aria-label='Add (.+?) to cart'", line)
            if m:
                prices = re.findall(r'\$([\d.]+)', '\n'.join(lines[max(0, i - 2):i + 1]))
                if prices:
                    offers.append((float(prices[-1]), int(m.group(1)), m.group(2)))
        if not offers:
            return 'Look for the results', [{'scroll_down': {'amount': 200}}], url, redirected
        price, index, name = (max if redirected else min)(offers)
        which = 'most expensive' if redirected else 'cheapest'
        return f'Add the {which} stapler ({name}, ${price:.2f}) to the cart', [{'click_element_by_index': {'index': index}}], url, redirected
    if '/results.html' in url:
        return 'Check the cart', [{'go_to_url': {'url': base + 'cart.html'}}], url, redirected
    if url.split('?')[0].endswith('cart.html'):
        items = [l.strip() for l in state.splitlines() if ' - $' in l and '[' not in l]
        return 'Report the cart', [{'done': {'text': 'Cart: ' + '; '.join(items), 'success': True}}], url, redirected
    return 'Unexpected page', [{'done': {'text': 'lost at ' + url, 'success': False}}], url, redirected


def completion(body: dict, message: dict) -> dict:
    return {'id': f'chatcmpl-{STATE["calls"]}', 'object': 'chat.completion', 'created': int(time.time()), 'model': body.get('model', 'scripted'),
            'choices': [{'index': 0, 'message': message, 'finish_reason': 'tool_calls' if message.get('tool_calls') else 'stop', 'logprobs': None}],
            'usage': {'prompt_tokens': 10, 'completion_tokens': 10, 'total_tokens': 20}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def _json(self, code: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        try:
            self.send_response(code)
            self.send_header('content-type', 'application/json')
            self.send_header('content-length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the agent was stopped while we held its request

    def do_GET(self) -> None:
        if self.path == '/log':
            with LOCK:
                return self._json(200, STATE['log'])
        if self.path.endswith('/models'):
            return self._json(200, {'object': 'list', 'data': [{'id': 'scripted', 'object': 'model'}]})
        self._json(404, {'error': 'not found'})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get('content-length', '0') or 0)) or b'{}')
        if self.path == '/control':
            STATE['hold_on'] = body.get('hold_on')
            STATE['released'].clear()
            return self._json(200, {'ok': True})
        if self.path == '/release':
            STATE['released'].set()
            return self._json(200, {'ok': True})
        if not self.path.endswith('/chat/completions'):
            return self._json(404, {'error': 'not found'})
        STATE['calls'] += 1
        tools = body.get('tools') or []
        if not tools:
            return self._json(200, completion(body, {'role': 'assistant', 'content': 'Paris'}))
        goal, actions, url, redirected = decide(body.get('messages') or [])
        hold = STATE['hold_on']
        if hold and hold in url:
            STATE['hold_on'] = None
            with LOCK:
                STATE['log'].append({'url': url, 'goal': 'held', 'redirected': redirected})
            STATE['released'].wait(60)
            goal, actions = 'Look at the results again', [{'scroll_down': {'amount': 100}}]
        with LOCK:
            STATE['log'].append({'url': url, 'goal': goal, 'redirected': redirected})
        args = {'current_state': {'evaluation_previous_goal': 'Success' if STATE['calls'] > 2 else 'Unknown - first step', 'memory': f'step {STATE["calls"]}', 'next_goal': goal}, 'action': actions}
        name = (tools[0].get('function') or {}).get('name', 'AgentOutput')
        call = {'id': f'call_{STATE["calls"]}', 'type': 'function', 'function': {'name': name, 'arguments': json.dumps(args)}}
        self._json(200, completion(body, {'role': 'assistant', 'content': None, 'tool_calls': [call]}))


def main() -> None:
    server = ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
    server.daemon_threads = True
    print(json.dumps({'base_url': f'http://127.0.0.1:{server.server_address[1]}/v1'}), flush=True)
    server.serve_forever()


if __name__ == '__main__':
    main()
