"""The examples browser_use's git tag 0.1.48 has and its PyPI sdist does not: the suite runs what PyPI
ships (the 0.1.48 sdist has no examples/ folder at all, checked by test_real_agent_examples.py), and
CI reaches PyPI only, so these files are named here, read from the tag, and never run or copied into
this repository. Each says where the calls it makes are run instead, on both sides."""

from __future__ import annotations

from dataclasses import dataclass

#: Why none of the files below runs in the examples suite.
WHY = (
    'not run by the suite: the PyPI sdist ships no examples/ folder, and the suite takes the examples from PyPI '
    '(the only index CI reaches)'
)


@dataclass(frozen=True)
class TagOnly:
    path: str
    what: str  # what the example does, and where its calls run instead (or what it needs)


TAG_ONLY: tuple[TagOnly, ...] = (
    TagOnly('browser/stealth.py', 'bot-detection sites with a stealth Chromium; needs the live sites'),
    TagOnly(
        'custom-functions/action_filters.py',
        'actions offered only on some pages (registry.action(domains=..., page_filter=...)) on apple.com and google.com; '
        'not run elsewhere in this suite',
    ),
    TagOnly(
        'custom-functions/custom_hooks_before_after_step.py',
        'on_step_start / on_step_end hooks posting to a local FastAPI recorder (needs fastapi, uvicorn, prettyprinter)',
    ),
    TagOnly(
        'custom-functions/hover_element.py',
        'hover by index, CSS selector and xpath, then a click: its calls run in tests/test_real_agent_scenarios.py '
        '(test_hover_menu_by_index_selector_and_xpath)',
    ),
    TagOnly(
        'custom-functions/onepassword_2fa.py',
        'a 2FA code from a 1Password account (needs onepassword-sdk and a service account token)',
    ),
    TagOnly(
        'features/click_fallback_options.py',
        'clicks by xpath, CSS selector and text on its own aiohttp page: its calls run in tests/test_real_agent_scenarios.py '
        '(test_click_fallbacks_by_xpath_selector_text_and_page_calls)',
    ),
    TagOnly(
        'features/cross_origin_iframes.py',
        'a click inside a cross-origin iframe: run in tests/test_real_agent_scenarios.py (test_click_in_a_cross_origin_iframe)',
    ),
    TagOnly(
        'features/drag_drop.py',
        'drag and drop on a sortable list: run in tests/test_real_agent_scenarios.py (test_drag_and_drop_a_sortable_list)',
    ),
    TagOnly(
        'features/playwright_script_generation.py',
        "Agent(save_playwright_script_path=...) writes a Playwright script of the run, then runs it with Playwright's own browser",
    ),
    TagOnly('features/task_with_memory.py', "the agent's procedural memory (mem0) over many pages; needs mem0 and the live docs site"),
    TagOnly('use-cases/google_sheets.py', 'edits a Google Sheet in your signed-in Chrome (needs a Google account)'),
    TagOnly('use-cases/wikipedia_banana_to_quantum.py', 'follows Wikipedia links from Banana to Quantum mechanics; needs the live site'),
)

#: Files of the table whose 0.1.48 tag version was rewritten for 0.1.48's API (the sdist's 0.1.40 text cannot
#: apply on 0.1.48). Every other file of the table changed in the tag too, from setup lines (sys.path,
#: load_dotenv, browser_binary_path) to whole rewrites (online_coding_agent.py, post-twitter.py, shopping.py).
TAG_UPDATED: tuple[TagOnly, ...] = (
    TagOnly('features/custom_system_prompt.py', "the tag's version passes Agent(extend_system_message=...) instead of system_prompt_class"),
    TagOnly(
        'features/result_processing.py',
        "the tag's version sizes the window with BrowserContextConfig(window_width=..., window_height=...) instead of "
        'BrowserContextWindowSize',
    ),
)
