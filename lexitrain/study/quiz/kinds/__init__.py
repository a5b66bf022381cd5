"""Question kinds, one module each (`base` holds what they share and the registry)."""
