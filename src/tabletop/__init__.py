"""tabletop: five tabletop game systems run exactly as their rule documents describe them."""

__version__ = "0.1.0"
