"""One scenario per file of browser_use 0.1.40's examples/{browser,custom-functions,features,use-cases}:
its status per browser_use version, the test-only URL substitutions, the answers to input(), and
the scripted model's steps (read from the page state the model gets, never hard-coded indexes).

Status: 'runs' (both sides reach the same result, and it is the documented ``outcome``), 'difference'
(both run, our side reaches the ``outcome`` and the documented difference is asserted by the test),
'cannot' (not run on the fixtures; ``user_error`` is what a person sees, and the test checks it where
``check_error`` runs the example up to that error on our side), 'index' (not an example: a table of
files, each of which is a row of its own).
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from tests.scripted_llm import Script, Seen


@dataclass
class Ctx:
    origin: str  # the fixture server, http://127.0.0.1:<port>
    v40: bool
    cwd: str  # the example's working directory

    @property
    def local(self) -> str:
        """The same fixture server under another host name (for "a different site")."""
        return self.origin.replace('127.0.0.1', 'localhost')

    @property
    def click(self) -> str:
        return 'click_element' if self.v40 else 'click_element_by_index'


@dataclass
class Scenario:
    path: str
    status: str  # runs | difference | cannot (on both versions unless status_048 says otherwise)
    what: str  # the fixture the example runs against, or why it cannot apply
    steps: Optional[Callable[[Ctx], Any]] = None  # -> list of steps, or dict task-keyword -> steps
    urls: Callable[[Ctx], list[tuple[str, str]]] = lambda c: []
    inputs: Any = field(default_factory=list)  # a list, or Ctx -> list when an answer names the fixture origin
    versions: tuple[str, ...] = ('0.1.40', '0.1.48')  # where the example's API applies
    not_on_048: str = ''  # why it does not apply on 0.1.48, and the error a person sees there
    difference: str = ''
    user_error: str = ''  # for 'cannot': the exact error a person sees
    check_error: bool = False  # run it on our side and assert user_error
    status_048: str = ''  # the status on 0.1.48 when it differs from 0.1.40's
    difference_048: str = ''  # the documented difference on 0.1.48 when it is not 0.1.40's
    timeout_s: int = 90
    # What each Agent.run (or take_step) of the example reaches, in order (see outcome_of); the default
    # is one run that ends with done(success=True). A 'runs' row passes only when both sides reach it.
    outcome: tuple[str, ...] = ('success',)
    ends_with: str = ''  # the exception the example itself ends with, on both sides (as a person ends it)
    # The reference side cannot run on this machine for this reason (not browser_use's behaviour): it is not run
    # there, our side must reach the outcome, and the test checks the reason still holds.
    reference_env: str = ''
    reference_env_why: str = ''
    lists: tuple[str, ...] = ()  # 'index': the files the table lists


def outcome_of(run: dict) -> str:
    """What one Agent.run reached: success, done (no success flag), failed (done, success False),
    not_done (max_steps or stopped), take_step, or raised."""
    if 'raised' in run:
        return 'raised'
    if 'take_step' in run:
        return 'take_step'
    if not run['is_done']:
        return 'not_done'
    return {True: 'success', False: 'failed'}.get(run['success'], 'done')


def done(text: str, success: bool = True) -> list:
    return [{'done': {'text': text, 'success': success}}]


def go(url: str) -> list:
    return [{'go_to_url': {'url': url}}]


def click(c: Ctx, needle: str, nth: int = 0) -> Callable[[Seen], list]:
    return lambda s: [{c.click: {'index': s.index_of(needle, nth)}}]


def answer(pattern: str, fmt: str = '{}', where: str = 'state') -> Callable[[Seen], list]:
    """done(text) with what the page (or the conversation) shows; success False when it does not."""

    def step(s: Seen) -> list:
        text = s.state_text if where == 'state' else s.raw
        m = re.search(pattern, text)
        if not m:
            return done(f'not found on the page: {pattern}', False)
        return done(fmt.format(*[g.strip() for g in m.groups()]))

    return step


def _file_upload(c: Ctx) -> list:
    path = f'{c.cwd}/tmp.txt'
    return [
        go(f'{c.origin}/upload/'),
        [{'read_file': {'path': path}}],
        lambda s: [{'upload_file': {'index': s.index_of('re:<input[^>]*file'), 'path': path}}],
        answer(r'(Received \S+ with \w+)'),
    ]


def _custom_output(c: Ctx) -> list:
    def finish(s: Seen) -> list:
        posts = [
            {'post_title': t, 'post_url': f'{c.origin}/sites/show{i + 1}.html', 'num_comments': int(n), 'hours_since_post': int(h)}
            for i, (t, h, n) in enumerate(re.findall(r'(Show HN: \w+)\W+(\d+) hours ago \| (\d+) comments', s.state_text))
        ]
        data = {'posts': posts}
        return [{'done': {**data, 'success': bool(posts)} if c.v40 else {'success': bool(posts), 'data': data}}]

    return [go(f'{c.origin}/hn/show.html'), finish]


def _multi_tab(c: Ctx) -> list:
    return [
        [{'open_tab': {'url': f'{c.origin}/google/search.html?q=elon+musk'}}],
        [{'open_tab': {'url': f'{c.origin}/google/search.html?q=trump'}}],
        [{'open_tab': {'url': f'{c.origin}/google/search.html?q=steve+jobs'}}],
        lambda s: [{'switch_tab': {'page_id': _tab_with(s, 'elon')}}],
        answer(r'Current url: (\S+)'),
    ]


def _tab_with(s: Seen, needle: str) -> int:
    """The page_id of the listed tab whose URL contains needle ("Available tabs: [TabInfo(page_id=0, url='...'), ...]")."""
    for page_id, url in re.findall(r"page_id=(\d+), url='([^']*)'", s.state_text):
        if needle in url:
            return int(page_id)
    raise LookupError(f'no tab with {needle!r} in {s.state_text[:400]}')


def _sensitive(c: Ctx) -> list:
    return [
        go(f'{c.origin}/x/'),
        lambda s: [
            {'input_text': {'index': s.index_of('Username'), 'text': '<secret>x_name</secret>'}},
            {'input_text': {'index': s.index_of('Password'), 'text': '<secret>x_password</secret>'}},
            {c.click: {'index': s.index_of('Log in')}},
        ],
        click(c, 'Like'),
        answer(r'(\d+ likes)', 'liked the interesting post: {}'),
    ]


def _parallel(c: Ctx) -> dict:
    def visit(page: str, pattern: str) -> list:
        return [go(f'{c.origin}/sites/{page}.html'), answer(pattern)]

    return {
        # Patterns end where the page's heading does: a state line may go on with the tab list.
        'weather in Tokyo': visit('weather', r'(Weather in Tokyo: \d+ C)'),
        'Reddit': visit('reddit', r'(Reddit front page)'),
        'Bitcoin': visit('coinbase', r'(Bitcoin price: 1 BTC = \d+ USD)'),
        'NASA': visit('nasa', r'(NASA image of the day: a nebula)'),
        'apple.com': visit('apple', r'(Apple)'),
    }


def _mail_done(s: Seen) -> list:
    """notification.py's own done takes text only: what the page shows, or that it was not found."""
    m = re.search(r'(Fixture page \w+)', s.state_text)
    return [{'done': {'text': f'visited: {m.group(1)}' if m else 'not found on the page'}}]


def _after_runs(n: int, answer_: Any) -> str:
    """An input() answer typed once the example's first n Agent runs finished (as a person waits for an agent)."""
    from tests.examples import runner

    runner.wait_for_runs(n)
    return answer_() if callable(answer_) else answer_


def _ctrl_c() -> str:
    """Ctrl-C, as a person ends an endless input() loop: SIGINT to the process (asyncio.run cancels the
    main task and raises KeyboardInterrupt); the input() call itself then returns a harmless 'b'."""
    os.kill(os.getpid(), signal.SIGINT)
    return 'b'


def _pause_inputs() -> list:
    from tests.examples import runner

    return ['1', lambda: runner.wait_for_runs(1) or '5']


def _docs_letter(path: str, what: str, letter: str) -> Scenario:
    """Write a letter in the document editor page (docs.google.com), as browser/real_browser.py and browser/using_cdp.py do."""
    return Scenario(
        path,
        'runs',
        what,
        steps=lambda c: [
            go(f'{c.origin}/docs/'),
            lambda s: [{'input_text': {'index': s.index_of('Document body'), 'text': letter}}],
            answer(r'Words:\s*(\d+)', 'wrote a letter of {} words'),
        ],
        urls=lambda c: [('docs.google.com', f'{c.origin}/docs/')],
        inputs=[''],
    )


def _tessa_search(path: str) -> Scenario:
    """An example that first calls asktessa.ai's paid search API, so it stops before any browser without BEARER_TOKEN."""
    return Scenario(
        path,
        'cannot',
        'calls the paid search API of asktessa.ai: set BEARER_TOKEN (the example exits before any browser starts without it)',
        user_error='ValueError: BEARER_TOKEN is not set - go to https://www.heytessa.ai/ and create an api key',
        check_error=True,
    )


def _x_post(path: str, what: str, x_url: str, text: str, inputs: Optional[list[Any]] = None) -> Scenario:
    """Post text on the x.com home page fixture (x_url is the example's own URL, replaced by the fixture's)."""
    return Scenario(
        path,
        'runs',
        what,
        steps=lambda c: [
            go(f'{c.origin}/x/home.html'),
            lambda s: [
                {'input_text': {'index': s.index_of("What's happening?"), 'text': text}},
                {c.click: {'index': s.index_of('Post')}},
            ],
            answer(r'(Posted: [^\n]+)'),
        ],
        urls=lambda c: [(x_url, f'{c.origin}/x/home.html')],
        inputs=list(inputs or []),
    )


SCENARIOS: list[Scenario] = [
    # -- browser/ --
    _docs_letter('browser/real_browser.py', 'a document editor page (docs.google.com)', 'Dear Papa, thank you for everything.'),
    _docs_letter(
        'browser/using_cdp.py',
        'the same document editor page; Gemini replaced by the scripted model',
        'Thank you for everything, Magnus',
    ),
    # -- custom-functions/ --
    _tessa_search('custom-functions/advanced_search.py'),
    Scenario(
        'custom-functions/clipboard.py',
        'runs',
        'a search page whose box shows what was typed; an in-memory pyperclip',
        steps=lambda c: [
            [{'copy_to_clipboard': {'text': 'Hello, world!'}}],
            go(f'{c.origin}/google/'),
            lambda s: [{c.click: {'index': s.index_of('Search', 0)}}, {'paste_from_clipboard': {}}],
            answer(r'Typed:\s*([^\n]+)', 'pasted: {}'),
        ],
        urls=lambda c: [('google.com', f'{c.origin}/google/')],
        inputs=[''],
    ),
    Scenario(
        'custom-functions/file_upload.py',
        'runs',
        'an upload form that reads the file it gets',
        steps=_file_upload,
        urls=lambda c: [('https://kzmpmkh2zfk1ojnpxfn1.lite.vusercontent.net/', f'{c.origin}/upload/')],
        inputs=[''],
    ),
    Scenario(
        'custom-functions/notification.py',
        'runs',
        'a site to visit, then the example\'s own done mails the result: yagmail is a test double that records the mail '
        '(to, subject, contents) instead of sending it; for real mail: pip install yagmail and put a Gmail app password in the example',
        steps=lambda c: [go(f'{c.origin}/sites/apple.html'), _mail_done],
        outcome=('done',),
    ),
    Scenario(
        'custom-functions/save_to_file_hugging_face.py',
        'runs',
        'a model list page (huggingface.co/models)',
        steps=lambda c: [
            go(f'{c.origin}/hf/'),
            lambda s: [
                {
                    'save_models': {
                        'models': [
                            {'title': t, 'url': f'{c.origin}/hf/', 'likes': int(n), 'license': 'cc-by-sa-4.0'}
                            for t, n in re.findall(r'(org/model-\w+)\W+(\d+) likes', s.state_text)
                        ]
                    }
                }
            ],
            lambda s: done('saved ' + ', '.join(re.findall(r'org/model-\w+', s.state_text))),
        ],
    ),
    # -- features/ --
    Scenario('features/custom_output.py', 'runs', 'a Show HN list page', steps=_custom_output),
    Scenario(
        'features/custom_system_prompt.py',
        'runs',
        'a search page (the model opens a new tab first, as the custom rule says)',
        versions=('0.1.40',),
        not_on_048="TypeError: Agent.__init__() got an unexpected keyword argument 'system_prompt_class' "
        '(0.1.48 replaced it: pass Agent(extend_system_message=...) instead)',
        steps=lambda c: [
            [{'open_tab': {'url': f'{c.origin}/wiki/Randomness.html'}}],
            go(f'{c.origin}/google/search.html?q=Elon+Musk+wife+images'),
            answer(r'(Images: [^\n]+)', 'found {}'),
        ],
    ),
    Scenario(
        'features/custom_user_agent.py',
        'difference',
        'a page that prints navigator.userAgent',
        steps=lambda c: [go(f'{c.origin}/ua/'), answer(r'UA:\s*([^\n]+)')],
        urls=lambda c: [('https://whatismyuseragent.com', f'{c.origin}/ua/')],
        inputs=[''],
        difference='BrowserContextConfig(user_agent=...) is ignored: the page sees your Chrome\'s own user agent, not "foobarfoo"',
    ),
    Scenario(
        'features/download_file.py',
        'runs',
        'a page with two .doc download links; Gemini replaced by the scripted model',
        steps=lambda c: [
            go(f'{c.origin}/files/'),
            click(c, '100kB'),
            answer(r'Downloaded file to \S*?(sample-100kB\.doc)', 'downloaded {}', where='raw'),
        ],
        urls=lambda c: [('https://file-examples.com/', f'{c.origin}/files/')],
    ),
    Scenario(
        'features/follow_up_tasks.py',
        'runs',
        'a company page listing its founders',
        steps=lambda c: [
            go(f'{c.origin}/yc/'),
            # Both names, whatever the state format puts between the two links.
            answer(r'(Magnus Mueller)[\s\S]*?(Gregor Zunic)', 'Founders: {}, {}. Draft: Hi, I love what you build.'),
            [{'open_tab': {'url': f'{c.origin}/sites/magnus.html'}}],
            answer(r'(Magnus Mueller)', 'image page of {}'),
        ],
        outcome=('success', 'success'),
    ),
    Scenario(
        'features/initial_actions.py',
        'runs',
        'a search page and a long article (the initial actions open and scroll them)',
        steps=lambda c: [answer(r'Theories displayed:\s*([^\n]+)')],
        urls=lambda c: [
            ('https://www.google.com', f'{c.origin}/google/'),
            ('https://en.wikipedia.org/wiki/Randomness', f'{c.origin}/wiki/Randomness.html'),
        ],
    ),
    Scenario(
        'features/multi-tab_handling.py',
        'difference',
        'three search result pages in three tabs',
        steps=_multi_tab,
        status_048='runs',
        difference="after switch_tab the agent sees the tab it switched to; 0.1.40's own Playwright keeps showing the last "
        'opened tab (its current page is always the last page unless cdp_url is set)',
    ),
    Scenario(
        'features/multiple_agents_same_browser.py',
        'runs',
        'its terminal loop answered as a person types: a first task (open a site, read it), then, once that agent finished, a '
        'second task on the same browser context (which page is open), then Ctrl-C, the only way the example ends',
        steps=lambda c: {
            'weather': [go(f'{c.origin}/sites/weather.html'), answer(r'(Weather in Tokyo: \d+ C)')],
            'which page': [answer(r'Current url: (\S+)', 'the shared browser shows {}')],
        },
        inputs=lambda c: [
            f'Open {c.origin}/sites/weather.html and tell me the weather in Tokyo',
            lambda: _after_runs(1, 'Tell me which page is open in this browser'),
            lambda: _after_runs(2, _ctrl_c),
        ],
        outcome=('success', 'success'),
        ends_with='KeyboardInterrupt',
    ),
    Scenario(
        'features/outsource_state.py',
        'runs',
        'a Show HN list page (one take_step with an injected AgentState)',
        steps=lambda c: [go(f'{c.origin}/hn/show.html')],
        outcome=('take_step',),
    ),
    Scenario(
        'features/parallel_agents.py',
        'runs',
        'four sites, one per agent, then a fifth agent; through the shim the first agent takes the active tab and each other '
        'one works in a new tab of its own (as each Playwright context gets its own page), and all five answer (the shim '
        'ignores save_recording_path).',
        steps=_parallel,
        timeout_s=45,
        outcome=('success',) * 5,
        reference_env='ffmpeg absent',
        reference_env_why='the example records video (save_recording_path), which needs Playwright\'s ffmpeg '
        '("playwright install ffmpeg"), not installed on this machine: every page the reference side opens fails (0.1.48 logs '
        '"Video rendering requires ffmpeg binary", 0.1.40 only "Page load failed") and no agent answers, so the suite does '
        'not run it there and checks that Playwright here cannot record video',
    ),
    Scenario(
        'features/pause_agent.py',
        'runs',
        'two sites opened in one step (the menu is answered 1 = start, then 5 = exit once the run finished)',
        steps=lambda c: [
            [{'open_tab': {'url': f'{c.origin}/sites/{p}.html'}} for p in ('weather', 'reddit')],
            lambda s: done(f'opened {len(re.findall(r"sites/(weather|reddit)", s.state_text))} tabs'),
        ],
        urls=lambda c: [],
        inputs=_pause_inputs(),
    ),
    Scenario(
        'features/planner.py',
        'runs',
        'no page: the task is "your task"; the planner model is the scripted one',
        steps=lambda c: [done('nothing to do: the task only says "your task"')],
    ),
    Scenario(
        'features/restrict_urls.py',
        'difference',
        status_048='runs',
        what='a search page on one host whose first result is on another host',
        steps=lambda c: [
            go(f'{c.local}/google/search.html?q=openai.com'),
            click(c, 'OpenAI'),
            answer(r'Current url: (\S+)', 'still on {}'),
        ],
        urls=lambda c: [
            ("allowed_domains = ['google.com']", "allowed_domains = ['localhost']"),
            ('go to google.com', f'go to {c.local}/google/'),
        ],
        inputs=[''],
        difference='the agent starts and the click to the other host fails with "Navigation to non-allowed URL"; on 0.1.40\'s own '
        'Playwright the run never starts: its blank first page is itself not allowed, and every step fails until max_steps',
    ),
    Scenario(
        'features/result_processing.py',
        'runs',
        'a search page and its results',
        steps=lambda c: [
            go(f'{c.origin}/google/'),
            lambda s: [
                {'input_text': {'index': s.index_of('Search', 0), 'text': 'OpenAI'}},
                {c.click: {'index': s.index_of('Google Search')}},
            ],
            answer(r'Results for (\w+)', 'first result for {}'),
        ],
        urls=lambda c: [('go to google.com', f'go to {c.origin}/google/')],
        versions=('0.1.40',),
        not_on_048="ImportError: cannot import name 'BrowserContextWindowSize' from 'browser_use.browser.context' (0.1.48 removed it; "
        'use BrowserContextConfig(window_width=..., window_height=...))',
    ),
    Scenario(
        'features/save_trace.py',
        'difference',
        'a news page, then a second site in a new tab',
        steps=lambda c: [
            go(f'{c.origin}/hn/'),
            [{'open_tab': {'url': f'{c.origin}/sites/apple.html'}}],
            lambda s: done('titles: ' + ', '.join(sorted(set(re.findall(r'(Hacker News|Apple)', s.state_text))))),
        ],
        difference='BrowserContextConfig(trace_path=...) writes no Playwright trace: there is no Playwright behind your Chrome',
    ),
    Scenario(
        'features/sensitive_data.py',
        'runs',
        'a login form that checks the credentials, then a post with a Like button',
        steps=_sensitive,
        urls=lambda c: [('go to x.com', f'go to {c.origin}/x/')],
    ),
    Scenario(
        'features/small_model_for_extraction.py',
        'runs',
        'a company page; extraction answered by the scripted small model',
        steps=lambda c: [
            go(f'{c.origin}/yc/'),
            [{'extract_content': {'goal': 'all links'}}],
            [{'open_tab': {'url': f'{c.origin}/sites/magnus.html'}}],
            answer(r'(Magnus Mueller)', 'opened the page of {}'),
        ],
    ),
    Scenario(
        'features/validate_output.py',
        'runs',
        "a news page; the example's done returns a string, so the run never finishes (as the example says)",
        steps=lambda c: [go(f'{c.origin}/hn/')] + [[{'done': {'title': 'Fixture post one', 'comments': '45', 'hours_since_start': 2}}]] * 4,
        outcome=('not_done',),
    ),
    # -- use-cases/ --
    Scenario(
        'use-cases/README.md',
        'index',
        "not an example: the folder's description table; each file it lists is a row of this table:",
        lists=(
            'captcha.py',
            'check_appointment.py',
            'find_and_apply_to_jobs.py',
            'online_coding_agent.py',
            'post-twitter.py',
            'scrolling_page.py',
            'twitter_post_using_cookies.py',
            'web_voyager_agent.py',
        ),
    ),
    Scenario(
        'use-cases/captcha.py',
        'runs',
        'a captcha page whose code is text on the page',
        steps=lambda c: [
            go(f'{c.origin}/captcha/'),
            lambda s: [
                {'input_text': {'index': s.index_of('Captcha code'), 'text': re.search(r'characters:\s*(\w+)', s.state_text).group(1)}},
                {c.click: {'index': s.index_of('Validate')}},
            ],
            answer(r'(Captcha solved correctly|Incorrect code)'),
        ],
        urls=lambda c: [('https://captcha.com/demos/features/captcha-demo.aspx', f'{c.origin}/captcha/')],
        inputs=[''],
    ),
    Scenario(
        'use-cases/check_appointment.py',
        'runs',
        'an appointment calendar with this month and next month',
        steps=lambda c: [
            [{'go_to_webpage': {'link': f'{c.origin}/mfa/'}}],
            go(f'{c.origin}/mfa/'),
            click(c, 'Next month'),
            answer(r'Next month: (no available date)', 'there is {} in both months'),
        ],
        urls=lambda c: [('https://appointment.mfa.gr/en/reservations/aero/ireland-grcon-dub/', f'{c.origin}/mfa/')],
    ),
    Scenario(
        'use-cases/find_and_apply_to_jobs.py',
        'cannot',
        'applies on live job sites with your CV: pip install PyPDF2, set AZURE_OPENAI_KEY and AZURE_OPENAI_ENDPOINT, '
        'put your CV at ./cv_04_24.pdf',
        user_error="ModuleNotFoundError: No module named 'PyPDF2'",
        check_error=True,
    ),
    _tessa_search('use-cases/find_influencer_profiles.py'),
    Scenario(
        'use-cases/online_coding_agent.py',
        'runs',
        'an online code editor with a Run button (three agents on one context)',
        outcome=('success',) * 3,
        steps=lambda c: {
            'Open an online code editor': [go(f'{c.origin}/editor/'), done('opened the editor')],
            'Executor': [click(c, 'Run'), answer(r'Output:\s*([^\n]+)')],
            'Coder': [
                lambda s: [
                    {'input_text': {'index': s.index_of('Code editor'), 'text': 'a = 1\nb = 2\nprint(a + b)'}},
                    {c.click: {'index': s.index_of('Run')}},
                ],
                answer(r'Output:\s*([^\n]+)'),
            ],
        },
    ),
    _x_post(
        'use-cases/post-twitter.py',
        'a home page with a "What\'s happening?" box and a Post button',
        'https://x.com/home',
        '@XXXXX XXXXX',
    ),
    Scenario(
        'use-cases/scrolling_page.py',
        'runs',
        'a long article with the sentence far below the fold',
        status_048='difference',
        difference_048="through the shim the page scrolls to the sentence; 0.1.48's own Playwright answers "
        '"Text ... not found or not visible on page" and does not scroll (its scroll_to_text awaits Locator.first, '
        'a TypeError it swallows for every locator)',
        steps=lambda c: [
            go(f'{c.origin}/wiki/Internet.html'),
            [{'scroll_to_text': {'text': 'The vast majority of computer'}}],
            answer(r'(The vast majority of computer[^\n]*)'),
        ],
        urls=lambda c: [('https://en.wikipedia.org/wiki/Internet', f'{c.origin}/wiki/Internet.html')],
    ),
    Scenario(
        'use-cases/shopping.py',
        'runs',
        'a grocery page with + buttons and a basket total (the scripted shopper buys two items)',
        steps=lambda c: [go(f'{c.origin}/grocery/'), click(c, 'Add beef'), click(c, 'Add gruyere'), answer(r'(Basket: [^\n]+)')],
        urls=lambda c: [('https://www.migros.ch/en', f'{c.origin}/grocery/')],
        inputs=[''],
    ),
    _x_post(
        'use-cases/twitter_post_using_cookies.py',
        'a home page with a compose box and a Post button; Gemini replaced by the scripted model',
        'https://x.com',
        'browser-use ftw',
        inputs=[''],
    ),
    Scenario(
        'use-cases/web_voyager_agent.py',
        'runs',
        'a hotel list page; Azure replaced by the scripted model; the output validator is scripted too',
        steps=lambda c: [go(f'{c.origin}/booking/'), answer(r'(Hotel Lumiere[^\n]*)', 'book {}')],
        urls=lambda c: [('https://www.booking.com/', f'{c.origin}/booking/')],
    ),
]

BY_PATH = {s.path: s for s in SCENARIOS}


def status_on(sc: Scenario, version: str) -> str:
    return sc.status_048 if version == '0.1.48' and sc.status_048 else sc.status


def script_for(sc: Scenario, c: Ctx) -> Script:
    steps = sc.steps(c) if sc.steps else []
    if isinstance(steps, dict):
        return RoutedScript(steps)
    return Script(steps, extract=lambda seen: json.dumps({'links': re.findall(r'(Magnus Mueller|Gregor Zunic)', seen.raw)}))


class RoutedScript(Script):
    """Several agents at once (or one after another on one context): each conversation's steps are
    chosen by a keyword of its task, so the order the agents ask in does not matter."""

    def __init__(self, routes: dict[str, list]) -> None:
        super().__init__([])
        self.routes = {k: list(v) for k, v in routes.items()}
        self._route_lock = threading.Lock()

    def _step_output(self, seen: Seen) -> Any:
        # The task message only: later state messages list every tab, other agents' titles included.
        first = next((m['text'] for m in seen.messages if m['role'] != 'system' and 'task' in m['text']), '')
        for key, steps in self.routes.items():
            if key in first:
                # The server answers agents on threads of its own: pop this route's next step under a
                # lock (a shared self.steps would hand one agent another agent's step).
                with self._route_lock:
                    step = steps.pop(0) if steps else None
                if step is None:
                    return done('the script ran out of steps', False)
                try:
                    return step(seen) if callable(step) else step
                except Exception as e:  # a script bug shows in the test, not as a hung agent
                    self.errors.append(f'{type(e).__name__}: {e}')
                    return done(f'script error: {e}', False)
        self.errors.append(f'no route for the task in: {first[:300]}')
        return done('no scripted route for this task', False)
