"""What the SQL session stores (``sqlite``, ``postgresql``) share: one database class, one
schema with its steps, the SQL that differs between them named by a dialect (no hooks here)."""
