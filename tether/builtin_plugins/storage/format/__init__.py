"""pi's session format as bytes, shared by the built-in stores: ``JSON.stringify`` (stringify),
orjson where it gives the same bytes (fastjson, json_runs), the format's models (schema), the
v1/v2 → v3 migration, a listing's pi ``SessionInfo`` JSON (session_info) and the stores'
shared append (line_store)."""
