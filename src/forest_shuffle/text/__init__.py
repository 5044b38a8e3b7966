"""Words for people, shared by every face (no rich, no I/O): ``cardtext`` (effect, bonus and
points phrases of a card) and ``narration`` (action, decision and log words)."""
