"""Word lists in, compiled lexicons out: reading, compiling, storing, opening."""
