"""The kernel side of hooks: the typed caller (``Hooks``), answer checks, and the session
object every hook receives."""
