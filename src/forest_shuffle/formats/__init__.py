"""Files in and out: ``forest_json`` (the Forest JSON tables that ``score`` reads,
docs/forest-json.md) and ``records`` (game records and their replay, docs/records.md)."""
