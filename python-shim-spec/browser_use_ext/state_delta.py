"""State deltas (README "Deltas"): turn a ``state_delta`` (get_state ``since``) back into the whole state.

The Python twin of ``applyStateDelta`` in ``schemas/lib/state-delta.ts``; schemas/v1/defs/state_delta.json
defines the format. The rules, in short: elements are keyed by their ref ``id``; removed ones go,
added ones are woven in after the element they follow; kept ones get only their changed fields
(``elements_patched``, ``unset``) or a box offset (``elements_shifted``); ``index``, ``parent_index``
(unless patched), text ``after_index`` and dom_tree ``highlight_index`` are renumbered from document
order. The base state is never modified.

A delta that does not fit the state raises :class:`StateDeltaError`; the caller then asks for a full
state (get_state without ``since``).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

State = Dict[str, Any]

__all__ = ['StateDeltaError', 'apply_state_delta']


class StateDeltaError(ValueError):
    """The delta does not apply to this state: take a full state (get_state without since)."""


def _id_at(els: List[State], index: Optional[int]) -> Optional[str]:
    if not index:
        return None
    if 1 <= index <= len(els):
        return els[index - 1].get('id')
    return None


def apply_state_delta(prev: State, delta: State) -> State:
    """The state ``delta`` describes, built from ``prev`` (which must be the state named ``delta['base_state_id']``)."""
    base_id = delta.get('base_state_id')
    if prev.get('state_id') is not None and prev.get('state_id') != base_id:
        raise StateDeltaError(f"The delta applies to state {base_id}, not to {prev.get('state_id')}: take a full state (get_state "
                              "without since).")
    out: State = {k: v for k, v in prev.items() if k not in ('state_id', 'delta_unavailable')}
    out['state_id'] = delta['state_id']
    for f in delta.get('facts_removed') or []:
        out.pop(f, None)
    facts: State = delta.get('facts') or {}
    out.update(facts)

    # Elements.
    pe: List[State] = prev.get('actionable_elements') or []
    removed = set(delta.get('elements_removed') or [])
    follower: Dict[Optional[str], State] = {}
    for a in delta.get('elements_added') or []:
        if a['after'] in follower:
            raise StateDeltaError(f"Two elements added after {a['after']}: the delta is corrupt; take a full state.")
        follower[a['after']] = a['element']
    patches: Dict[str, State] = {}
    for p in delta.get('elements_patched') or []:
        one = {k: v for k, v in p.items() if k != 'also'}
        for i in [p['id'], *(p.get('also') or [])]:
            patches[i] = dict(one, id=i)
    shift_of: Dict[str, State] = {}
    for g in delta.get('elements_shifted') or []:
        for i in g['ids']:
            shift_of[i] = g
    order: List[State] = []
    fresh: set = set()

    def chain(anchor: Optional[str]) -> None:
        f = follower.get(anchor)
        while f is not None:
            order.append(f)
            fresh.add(id(f))
            f = follower.get(f['id'])

    chain(None)
    prev_ids = set()
    for e in pe:
        prev_ids.add(e['id'])
        if e['id'] in removed:
            continue
        order.append(e)
        chain(e['id'])
    if not removed <= prev_ids:
        raise StateDeltaError('The delta removes elements the state does not list: take a full state.')
    if len(order) != len(pe) - len(removed) + len(follower):
        raise StateDeltaError('Added elements follow elements the state does not list: the delta is corrupt; take a full state.')
    new_index = {e['id']: i + 1 for i, e in enumerate(order)}
    for i in list(patches) + list(shift_of):
        if i not in new_index or i in removed:
            raise StateDeltaError(f'The delta changes element {i}, which the state does not list: take a full state.')
    els: List[State] = []
    for i, e in enumerate(order):
        if id(e) in fresh:
            els.append(e)
            continue
        c = dict(e)
        c['index'] = i + 1
        p = patches.get(e['id'])
        if e.get('parent_index') is not None and (p is None or ('parent_index' not in p and 'parent_index' not in (p.get('unset') or []))):
            pid = _id_at(pe, e['parent_index'])
            ni = new_index.get(pid) if pid is not None else None
            if ni is None:
                raise StateDeltaError(f"Element {e['id']}'s parent is gone but the delta does not change it: take a full state.")
            c['parent_index'] = ni
        if p is not None:
            for k, v in p.items():
                if k not in ('id', 'also', 'unset'):
                    c[k] = v
            for k in p.get('unset') or []:
                c.pop(k, None)
        g = shift_of.get(e['id'])
        if g is not None:
            b = c.get('bounds')
            if not isinstance(b, dict):
                raise StateDeltaError(f"The delta shifts element {e['id']}, which has no bounds: take a full state.")
            c['bounds'] = {**b, 'x': b['x'] + g['dx'], 'y': b['y'] + g['dy']}
        els.append(c)
    out['actionable_elements'] = els

    # Text.
    def renumber(t: State) -> State:
        tid = _id_at(pe, t.get('after_index'))
        ni = 0 if tid is None else new_index.get(tid)
        if ni is None:
            raise StateDeltaError('A kept text follows an element that is gone: the delta is corrupt; take a full state.')
        return t if ni == t.get('after_index') else {**t, 'after_index': ni}

    if 'text_context' not in facts:
        splices = delta.get('text_splices') or []
        ta = prev.get('text_context')
        if splices:
            if ta is None:
                raise StateDeltaError('The delta edits text_context, which the state does not have: take a full state.')
            texts: List[State] = []
            pos = 0
            for s in splices:
                if s['at'] < pos or s['at'] + s['remove'] > len(ta):
                    raise StateDeltaError('text_splices do not fit the state: take a full state.')
                texts.extend(renumber(t) for t in ta[pos:s['at']])
                texts.extend(s['insert'])
                pos = s['at'] + s['remove']
            texts.extend(renumber(t) for t in ta[pos:])
            out['text_context'] = texts
        elif out.get('text_context') is not None:
            out['text_context'] = [renumber(t) for t in out['text_context']]

    # dom_tree.
    ops = delta.get('dom_tree_ops') or []
    if ops:
        root = prev.get('dom_tree')
        if root is None:
            raise StateDeltaError('The delta edits dom_tree, which the state does not have: take a full state (include_dom_tree).')
        for op in ops:
            root = _apply_dom_op(root, op)
        out['dom_tree'] = _renumber_highlights(root)
    return out


def _apply_dom_op(root: State, op: State) -> State:
    """Copy-on-write along op['path']."""
    path: List[int] = op['path']

    def go(node: State, depth: int) -> State:
        if node.get('kind') != 'element':
            raise StateDeltaError('A dom_tree edit goes through a text node: take a full state.')
        if depth < len(path):
            i = path[depth]
            kids = node['children']
            if not 0 <= i < len(kids):
                raise StateDeltaError('A dom_tree edit names a node the tree does not have: take a full state.')
            children = list(kids)
            children[i] = go(kids[i], depth + 1)
            return {**node, 'children': children}
        out = node
        if op.get('node') is not None:
            if op['node'].get('kind') != 'element':
                raise StateDeltaError('A dom_tree edit sets an element to a text node: take a full state.')
            out = {**op['node'], 'children': node['children']}
        if op.get('at') is not None:
            at, remove = op['at'], op.get('remove') or 0
            if at + remove > len(out['children']):
                raise StateDeltaError('A dom_tree splice does not fit the tree: take a full state.')
            children = list(out['children'])
            children[at:at + remove] = list(op.get('insert') or [])
            out = {**out, 'children': children}
        return out

    return go(root, 0)


def _renumber_highlights(root: State) -> State:
    """highlight_index 0, 1, ... in document order (iterative: DOM trees can be deeper than Python's recursion limit)."""
    counter = 0
    # Pre-order numbering with copy-on-write: rebuild bottom-up after a pre-order pass.
    new_of: Dict[int, State] = {}
    stack: List[tuple] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if node.get('kind') != 'element':
            continue
        if not done:
            hi = node.get('highlight_index')
            own = node
            if hi is not None:
                if hi != counter:
                    own = {**node, 'highlight_index': counter}
                counter += 1
            new_of[id(node)] = own
            stack.append((node, True))
            for c in reversed(node['children']):
                stack.append((c, False))
        else:
            own = new_of[id(node)]
            kids = node['children']
            replaced = [new_of.get(id(c), c) for c in kids]
            if any(r is not c for r, c in zip(replaced, kids)):
                own = {**own, 'children': replaced}
            new_of[id(node)] = own
    return new_of.get(id(root), root)
