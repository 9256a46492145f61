"""Notation: the ``carom/1`` reader and writer, the replay output, the printed
scoresheet and SVG pictures of the table. Standard library only."""
