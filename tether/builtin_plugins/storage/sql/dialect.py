"""What differs in the SQL of the two database backends: table names, the parameter mark,
column types and the statements only one of them has (no hooks here)."""

from __future__ import annotations

from dataclasses import dataclass

TABLES = {"s": "sessions", "e": "entries", "r": "index_runs", "t": "message_text"}


@dataclass(frozen=True)
class Dialect:
    """One backend's SQL. :meth:`sql` fills ``{s}`` (sessions), ``{e}`` (entries), ``{r}``
    (runs of chunk indexes), ``{t}`` (message texts), ``{size}``, ``{blob}`` and
    ``{boolean}``, and writes each ``?`` as the backend's parameter mark."""

    prefix: str  # of the table names but ``tether_schema``'s
    mark: str  # "?" or "%s"
    size: str  # the SQL function that gives a chunk's size in bytes
    blob: str  # the type of byte columns
    boolean: str  # the type of a flag column
    lock_row: str = ""  # appended to the append's SELECT of the session row
    full_text: tuple[str, ...] = ()  # schema v2: the message-text table (and its index)
    leases: tuple[str, ...] = ()  # the baseline's lease table, where leases are rows
    external: bool = False  # byte columns stored uncompressed (PostgreSQL's STORAGE EXTERNAL)

    def sql(self, text: str) -> str:
        tables = {key: self.prefix + name for key, name in TABLES.items()}
        filled = text.format(**tables, size=self.size, blob=self.blob, boolean=self.boolean)
        return filled.replace("?", self.mark)

    def uncompressed(self, table: str, column: str) -> list[str]:
        """The statement that stores ``column`` of ``table`` (``{e}``: as :meth:`sql` names
        tables) uncompressed, where the backend can."""
        if not self.external:
            return []
        return [self.sql(f"ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE EXTERNAL")]


__all__ = ["TABLES", "Dialect"]
