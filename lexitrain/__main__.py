"""Allow `python -m lexitrain`."""

from lexitrain.cli.app import main

main()
