"""The ways to study, each starting a quiz session: requests, the daily drill, challenges, walls, positions, plans."""
