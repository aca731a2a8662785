"""Stand-alone copies of the browser_use 0.1.48 classes the shim hands to agents.

Used only when ``browser_use`` is not importable (see ``browser_use_ext.compat``): same class
names, fields, methods and text formats, written from ``browser_use_0.1.48.md`` sections 1.5-1.10,
without pydantic.
"""
