"""Sub-commands of the ``forest-shuffle`` command line, one module each."""
