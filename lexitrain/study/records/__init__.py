"""What the progress database holds, read and kept: cards, decks, backups, imports, stats and coverage."""
