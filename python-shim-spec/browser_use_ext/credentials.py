"""Where the agent's bridge URL and secret come from (the authenticated handshake needs both).

Order: explicit argument, then the environment (BROWSER_USE_EXT_BRIDGE_URL,
BROWSER_USE_EXT_AGENT_SECRET), then the bridge's per-install secrets.json in
${BROWSER_USE_EXT_CONFIG_DIR:-${XDG_CONFIG_HOME:-~/.config}/browser-use-ext}.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

DEFAULT_BRIDGE_URL = 'ws://127.0.0.1:8765/agent'


def config_dir() -> Path:
    explicit = os.environ.get('BROWSER_USE_EXT_CONFIG_DIR')
    if explicit:
        return Path(explicit)
    base = os.environ.get('XDG_CONFIG_HOME') or os.path.join(os.path.expanduser('~'), '.config')
    return Path(base) / 'browser-use-ext'


def bridge_url(explicit: Optional[str] = None) -> str:
    return explicit or os.environ.get('BROWSER_USE_EXT_BRIDGE_URL') or DEFAULT_BRIDGE_URL


BROWSER_ENV = 'BROWSER_USE_EXT_BROWSER'


def browser_name(explicit: Optional[str] = None) -> Optional[str]:
    """The browser an agent works in, by the name its side panel shows (hello.browser_name): the explicit
    argument, else BROWSER_USE_EXT_BROWSER, else None (the bridge picks the only connected browser, or
    the one the person used last). Blank counts as unset."""
    name = (explicit or '').strip() or os.environ.get(BROWSER_ENV, '').strip()
    return name or None


def agent_secret(explicit: Optional[str] = None, directory: Optional[str] = None) -> Optional[str]:
    """The agent secret, or None when none is configured (a bridge without auth accepts that)."""
    if explicit:
        return explicit
    env = os.environ.get('BROWSER_USE_EXT_AGENT_SECRET')
    if env:
        return env
    path = (Path(directory) if directory else config_dir()) / 'secrets.json'
    try:
        data = json.loads(path.read_text(encoding='utf-8'))
    except (OSError, ValueError):
        return None
    secret = data.get('agent_secret') if isinstance(data, dict) else None
    return secret if isinstance(secret, str) and secret else None
