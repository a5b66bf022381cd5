"""Study, in floors that import only those below them: `store/` (the progress database), `quiz/`
(sessions, question kinds, scheduling, grading), `records/` (cards, decks, backups, stats) and
`drills/` (the study requests, the daily drill, challenges, walls, positions, plans)."""
