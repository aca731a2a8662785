"""bench:snapshot helper (the token comparison): the text browser_use 0.1.48 itself puts in the prompt for
a page, from the output of its own buildDomTree.js (which bench/snapshot.ts evaluated in the page).
Builds the element tree with browser_use's DomService._construct_dom_tree and renders it with
clickable_elements_to_string(AgentSettings().include_attributes), as its AgentMessagePrompt does.

Usage: python bu_tokens.py IN.json [IN.json ...]  (each: buildDomTree's {rootId, map}); writes
IN.txt next to each. Run with a browser-use==0.1.48 interpreter; bench/snapshot.ts counts tokens.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')

from browser_use.agent.views import AgentSettings  # noqa: E402
from browser_use.dom.service import DomService  # noqa: E402


async def main(paths: list[str]) -> None:
    include = AgentSettings().include_attributes
    # _construct_dom_tree uses only its argument, not the Playwright page the service normally holds.
    service = DomService.__new__(DomService)
    for p in paths:
        eval_page = json.loads(Path(p).read_text(encoding='utf-8'))
        root, _selector_map = await service._construct_dom_tree(eval_page)
        Path(p).with_suffix('.txt').write_text(root.clickable_elements_to_string(include_attributes=include), encoding='utf-8')


if __name__ == '__main__':
    asyncio.run(main(sys.argv[1:]))
