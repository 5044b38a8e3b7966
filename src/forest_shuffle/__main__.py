"""``python -m forest_shuffle`` runs the command line."""

from forest_shuffle.cli.app import main

main()
