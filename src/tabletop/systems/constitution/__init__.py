"""3d6 Constitution: the articles as an engine (filled in as modules land)."""
