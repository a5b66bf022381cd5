"""Word search over a compiled lexicon: query model, matching, execution."""
