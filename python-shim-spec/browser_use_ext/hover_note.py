"""Playwright's hover moves a real pointer, so CSS :hover applies. The extension's hover with trusted
input off runs the page's mouse handlers but cannot set :hover (no script can); the action's result
says so (css_hover false) and counts the page's :hover rules that did not apply. When there were
some, custom actions that hover to open a menu would silently see it stay closed: say it once, with
what to do."""
from __future__ import annotations

import logging

logger = logging.getLogger('browser_use_ext.hover')
_said = False


def note_hover(answer: dict) -> None:
    """Logs one warning per process when a hover left :hover styling unapplied."""
    global _said
    result = (answer.get('outcome_details') or {}).get('result') or {}
    rules = result.get('hover_style_rules')
    if _said or result.get('css_hover') is not False or not isinstance(rules, int) or rules <= 0:
        return
    _said = True
    logger.warning(
        'hover ran the page\'s mouse handlers, but CSS :hover cannot be set without real input: %d of the page\'s :hover '
        'rules did not apply, so what the page shows only on :hover stays hidden. To hover as Playwright does, turn on '
        '"Click and type like a real mouse and keyboard" in the extension\'s options.',
        rules,
    )
