"""Stand-alone copies of the browser_use 0.1.48 classes the shim hands to agents.

Used when ``browser_use`` is not importable (see ``browser_use_ext.compat``): same class
names, fields, methods and text formats, written from ``browser_use_0.1.48.md`` sections 1.5-1.10,
without pydantic. Without browser_use the whole shim (ExtensionBrowser, ExtensionController and its
Registry) runs on these, for custom agents (``serve --agent``) and scripts. With browser_use 0.1.40
only ``ClickableElementProcessor`` is taken from here: 0.1.40 has no
``browser_use.dom.clickable_element_processor`` (it arrived in a later 0.1.4x); 0.1.48 needs none.
"""
