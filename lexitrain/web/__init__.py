"""The local web app (`lexitrain web`): word walls, the daily challenge, reviews, positions, search,
stats and settings in the browser, over the same core and progress database as the CLI.

A face beside `lexitrain.cli`: it calls the study, search, engine and sheets
APIs and holds nothing of the game but the page's clock and input. Starlette,
uvicorn and Jinja2 are imported only here, and this package only by the `web`
command, so no other command pays for them.
"""
