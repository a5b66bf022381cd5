"""Printable study sheets: a sheet model, the kinds of sheet, and PDF/HTML/CSV/Markdown output."""
