"""The command line: ``app`` (the Typer app), ``commands`` (one module per sub-command),
``plots`` (the statistics' matplotlib plots)."""
