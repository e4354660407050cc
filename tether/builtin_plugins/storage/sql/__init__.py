"""What the SQL stores share: the many-sessions contract, the session store over stored lines,
chunk indexes and their runs, the indexed load."""
