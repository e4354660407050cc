"""tether's features, each a plugin declared as an entry point of the ``tether`` distribution.

Modules whose name starts with ``_`` are shared helpers, not plugins.
"""
