"""browser_use's anonymous usage telemetry under ``serve``: off unless the person turns it on.

browser_use 0.1.x sends product telemetry (posthog) by default and logs so on every start; offline it
also retries and logs posthog errors. A person running ``serve`` was promised that nothing leaves their
machine but what their model needs, so serve sets ANONYMIZED_TELEMETRY=false unless the person set the
variable themselves or passed ``--telemetry``, and its start output says which, once. browser_use reads
the variable when its first Controller is made, and it makes one while it is imported (Agent's default
argument), before serve's main() runs: so the package decides at its own import, for a serve process
only (decide_early); a program of the person's that imports the package is left as it is.
"""
from __future__ import annotations

import os
import sys
from typing import MutableMapping, Optional, Sequence

ENV = 'ANONYMIZED_TELEMETRY'
OPT_IN_FLAG = '--telemetry'
_decided: Optional[str] = None


def choose(opt_in: bool, env: Optional[MutableMapping[str, str]] = None) -> str:
    """Sets browser_use's telemetry variable; returns the start line that says what was chosen and why."""
    env = os.environ if env is None else env
    if opt_in:
        env[ENV] = 'true'
        return f"browser_use's anonymous telemetry: on ({OPT_IN_FLAG}); it sends usage events to browser_use's servers"
    if ENV in env:
        on = env[ENV].strip().lower() != 'false'
        return f"browser_use's anonymous telemetry: {'on' if on else 'off'} ({ENV}={env[ENV]} in your environment)"
    env[ENV] = 'false'
    return f"browser_use's anonymous telemetry: off (nothing is sent; {OPT_IN_FLAG} turns it on)"


def is_serve(argv: Sequence[str]) -> bool:
    """Whether this process is ``serve``: the console script, or ``python -m browser_use_ext serve``
    (while a -m package is imported, argv[0] is '-m')."""
    if not argv:
        return False
    name = os.path.basename(argv[0])
    return name.startswith('browser-use-ext-serve') or (argv[0] == '-m' and list(argv[1:2]) == ['serve'])


def decide(opt_in: bool) -> str:
    """serve's choice, made once per process (the first call decides); returns its start line."""
    global _decided
    if _decided is None:
        _decided = choose(opt_in)
    return _decided


def decide_early(argv: Sequence[str]) -> None:
    """At the package's import: decide now when this process is serve, before browser_use is imported."""
    if is_serve(argv):
        decide(OPT_IN_FLAG in argv)


# Imported first by the package (__init__.py), so this runs before browser_use is.
decide_early(sys.argv)
