"""The import rewrite a person applies to a browser_use example to run it in their own Chrome, done
mechanically on the example's text (docs/examples.md, "The change you make", states the same rule in words):

1. In every ``from browser_use... import ...`` statement, the names ``Browser``, ``BrowserConfig``,
   ``BrowserContext``, ``BrowserContextConfig`` and ``Controller`` are imported from ``browser_use_ext``
   instead; every other name stays where it was.
2. Every ``Agent(...)`` call that passes neither ``browser=`` nor ``browser_context=`` gets
   ``browser=Browser()``, and one that passes no ``controller=`` gets ``controller=Controller()``
   (both names from ``browser_use_ext``, imported once if the file does not import them yet).

Nothing else of the example changes. The test-only transformations (fixture URLs, answered input(),
the model class) live in scenarios.py and runner.py, never here.
"""

from __future__ import annotations

import ast

SHIM_NAMES = ('Browser', 'BrowserConfig', 'BrowserContext', 'BrowserContextConfig', 'Controller')


def _offset(lines: list[str], lineno: int, col: int) -> int:
    """Character offset of an ast (1-based line, utf-8 byte column) position in the joined text."""
    line = lines[lineno - 1]
    return sum(len(x) for x in lines[: lineno - 1]) + len(line.encode('utf-8')[:col].decode('utf-8'))


def rewrite_imports(source: str) -> str:
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in character offsets
    imported: set[str] = set()
    first_import_end = None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and (node.module == 'browser_use' or node.module.startswith('browser_use.')):
            moved = [a for a in node.names if a.name in SHIM_NAMES]
            if first_import_end is None or node.lineno < first_import_end[0]:
                first_import_end = (node.lineno, node.end_lineno, node.col_offset)
            if not moved:
                continue
            kept = [a for a in node.names if a.name not in SHIM_NAMES]
            indent = ' ' * node.col_offset if lines[node.lineno - 1][: node.col_offset].strip() == '' else ''

            def names(aliases: list[ast.alias]) -> str:
                return ', '.join(a.name + (f' as {a.asname}' if a.asname else '') for a in aliases)

            parts = []
            if kept:
                parts.append(f'from {node.module} import {names(kept)}')
            parts.append(f'from browser_use_ext import {names(moved)}')
            imported.update(a.asname or a.name for a in moved)
            start = _offset(lines, node.lineno, node.col_offset)
            end = _offset(lines, node.end_lineno, node.end_col_offset)
            edits.append((start, end, ('\n' + indent).join(parts)))
    needed: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ''
        if name != 'Agent':
            continue
        given = {k.arg for k in node.keywords}
        extra = []
        if not ({'browser', 'browser_context'} & given):
            extra.append('browser=Browser()')
            needed.add('Browser')
        if 'controller' not in given:
            extra.append('controller=Controller()')
            needed.add('Controller')
        if not extra:
            continue
        args = list(node.args) + list(node.keywords)
        if args:
            last = max(args, key=lambda a: (a.end_lineno, a.end_col_offset))
            at = _offset(lines, last.end_lineno, last.end_col_offset)
            edits.append((at, at, ', ' + ', '.join(extra)))
        else:
            at = _offset(lines, node.end_lineno, node.end_col_offset) - 1  # before the closing parenthesis
            edits.append((at, at, ', '.join(extra)))
    missing = sorted(needed - imported)
    if missing:
        line = f'from browser_use_ext import {", ".join(missing)}\n'
        if first_import_end is not None and first_import_end[2] == 0:
            at = _offset(lines, first_import_end[1] + 1, 0) if first_import_end[1] < len(lines) else len(source)
        else:
            at = 0
            if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(getattr(tree.body[0], 'value', None), ast.Constant):
                at = _offset(lines, tree.body[0].end_lineno + 1, 0)  # after the module docstring
        edits.append((at, at, line))
    out = source
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + text + out[end:]
    ast.parse(out)  # the rewrite never produces a file Python cannot read
    return out
