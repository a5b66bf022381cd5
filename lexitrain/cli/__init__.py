"""The typer command line: parse options, call the core, render or print JSON."""
