"""The rules engine: board, plays, validation and scoring, move generation,
games and the GCG / CGP formats. Nothing here prints or prompts."""
