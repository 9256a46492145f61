"""Players: statistics across matches and the player register."""
